"""``tf.keras.preprocessing``: what Keras 3 still ships of its legacy preprocessing
(layer 10, models).

``sequence.pad_sequences`` (also ``tf.keras.utils.pad_sequences``) works as in TF 2.21.
``image.ImageDataGenerator`` keeps its options but reads or transforms no image: each of
its methods raises ``NotImplementedError``. Every other name TF 2.21 has here fails with an
AttributeError saying so.
"""

import types

import numpy as np

from .tf_api_names import missing


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre",
                  value=0.0):
    """Sequences of different lengths as one NumPy array ``(len(sequences), maxlen, ...)``:
    each cut to its last (``truncating="pre"``) or first ``maxlen`` items, and filled with
    ``value`` before (``padding="pre"``) or after them."""
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths, sample_shape, found = [], (), False
    for s in sequences:
        try:
            lengths.append(len(s))
        except TypeError:
            raise ValueError("`sequences` must be a list of iterables. Found non-iterable: "
                             f"{s}") from None
        if not found and len(s):
            sample_shape, found = np.asarray(s).shape[1:], True
    if maxlen is None:
        maxlen = int(np.max(lengths))  # an empty list fails here, as in TF
    kind = np.dtype(dtype).kind if dtype is not object else "O"
    if isinstance(value, str) and kind not in ("S", "U", "O"):
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: "
                         f"{type(value)}\nYou should set `dtype=object` for variable length "
                         "strings.")
    out = np.full((len(lengths), maxlen) + sample_shape, value, dtype=dtype)
    for i, s in enumerate(sequences):
        if not len(s):
            continue
        if truncating == "pre":
            kept = s[-maxlen:]
        elif truncating == "post":
            kept = s[:maxlen]
        else:
            raise ValueError(f'Truncating type "{truncating}" not understood')
        kept = np.asarray(kept, dtype=dtype)
        if kept.shape[1:] != sample_shape:
            raise ValueError(f"Shape of sample {kept.shape[1:]} of sequence at position {i} "
                             f"is different from expected shape {sample_shape}")
        if padding == "post":
            out[i, :len(kept)] = kept
        elif padding == "pre":
            out[i, -len(kept):] = kept
        else:
            raise ValueError(f'Padding type "{padding}" not understood')
    return out


class ImageDataGenerator:
    """``tf.keras.preprocessing.image.ImageDataGenerator``: its options are kept; reading
    and augmenting images is not implemented (each method raises NotImplementedError)."""

    def __init__(self, **options):
        self.options = dict(options)
        for name, default in (("rescale", None), ("rotation_range", 0),
                              ("data_format", "channels_last"), ("dtype", "float32")):
            setattr(self, name, options.get(name, default))

    def _not_yet(self, method):
        raise NotImplementedError(f"tfgraph_edu does not implement ImageDataGenerator.{method} "
                                  "yet (TF 2.21's Keras has it): load images with "
                                  "tf.keras.utils.image_dataset_from_directory or tf.data, and "
                                  "augment them with tf.image ops.")

    def flow(self, *args, **kwargs):
        self._not_yet("flow")

    def flow_from_directory(self, *args, **kwargs):
        self._not_yet("flow_from_directory")

    def flow_from_dataframe(self, *args, **kwargs):
        self._not_yet("flow_from_dataframe")

    def fit(self, *args, **kwargs):
        self._not_yet("fit")

    def standardize(self, *args, **kwargs):
        self._not_yet("standardize")

    def random_transform(self, *args, **kwargs):
        self._not_yet("random_transform")

    def get_random_transform(self, *args, **kwargs):
        self._not_yet("get_random_transform")

    def apply_transform(self, *args, **kwargs):
        self._not_yet("apply_transform")


class _Module(types.ModuleType):
    """A ``tf.keras.preprocessing`` module: a name TF 2.21 has here and tfgraph_edu lacks
    fails saying so."""

    def __init__(self, label, **names):
        super().__init__(f"tfgraph_edu.keras.{label}")
        self._label = label
        self.__dict__.update(names)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(f"module '{self.__name__}' has no attribute '{name}'")
        raise missing(self._label, name)


# ``tf.keras.preprocessing`` itself: its three modules (``keras/__init__`` binds it)
NAMESPACE = _Module("preprocessing",
                    sequence=_Module("preprocessing.sequence", pad_sequences=pad_sequences),
                    text=_Module("preprocessing.text"),
                    image=_Module("preprocessing.image", ImageDataGenerator=ImageDataGenerator))
