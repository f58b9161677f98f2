"""The public names of ``tf.keras`` and its modules in TF 2.21 (Keras 3), listed from
TF 2.21 itself, so that a name tfgraph_edu lacks fails with an AttributeError that says
TF has it and tfgraph_edu does not implement it yet, and a name Keras 3 removed fails as
in TF (layer 10, models)."""

from __future__ import annotations

TF_NAMES: dict[str, frozenset[str]] = {
    "keras": frozenset("""
        DTypePolicy FloatDTypePolicy Function Initializer Input InputSpec KerasTensor Layer Loss
        Metric Model Operation Optimizer Quantizer Regularizer RematScope Sequential
        StatelessScope SymbolicScope Variable activations applications backend callbacks config
        constraints datasets device distillation distribution dtype_policies export initializers
        layers legacy losses metrics mixed_precision models name_scope ops optimizers
        preprocessing quantizers random regularizers remat tree utils version visualization
        wrappers
    """.split()),
    "layers": frozenset("""
        Activation ActivityRegularization AdaptiveAveragePooling1D AdaptiveAveragePooling2D
        AdaptiveAveragePooling3D AdaptiveMaxPooling1D AdaptiveMaxPooling2D AdaptiveMaxPooling3D
        Add AdditiveAttention AlphaDropout Attention AugMix AutoContrast Average
        AveragePooling1D AveragePooling2D AveragePooling3D AvgPool1D AvgPool2D AvgPool3D
        BatchNormalization Bidirectional CategoryEncoding CenterCrop Concatenate
        ContrastLimitedAdaptiveHistogramEqualization Conv1D Conv1DTranspose Conv2D
        Conv2DTranspose Conv3D Conv3DTranspose ConvLSTM1D ConvLSTM2D ConvLSTM3D Convolution1D
        Convolution1DTranspose Convolution2D Convolution2DTranspose Convolution3D
        Convolution3DTranspose Cropping1D Cropping2D Cropping3D CutMix Dense DepthwiseConv1D
        DepthwiseConv2D Discretization Dot Dropout ELU EinsumDense Embedding Equalization
        Flatten FlaxLayer GRU GRUCell GaussianDropout GaussianNoise GlobalAveragePooling1D
        GlobalAveragePooling2D GlobalAveragePooling3D GlobalAvgPool1D GlobalAvgPool2D
        GlobalAvgPool3D GlobalMaxPool1D GlobalMaxPool2D GlobalMaxPool3D GlobalMaxPooling1D
        GlobalMaxPooling2D GlobalMaxPooling3D GroupNormalization GroupQueryAttention
        HashedCrossing Hashing Identity Input InputLayer InputSpec IntegerLookup JaxLayer LSTM
        LSTMCell Lambda Layer LayerNormalization LeakyReLU Masking MaxNumBoundingBoxes MaxPool1D
        MaxPool2D MaxPool3D MaxPooling1D MaxPooling2D MaxPooling3D Maximum MelSpectrogram
        Minimum MixUp MultiHeadAttention Multiply Normalization PReLU Permute Pipeline
        RMSNormalization RNN RandAugment RandomBrightness RandomColorDegeneration
        RandomColorJitter RandomContrast RandomCrop RandomElasticTransform RandomErasing
        RandomFlip RandomGaussianBlur RandomGrayscale RandomHeight RandomHue RandomInvert
        RandomPerspective RandomPosterization RandomRotation RandomSaturation RandomSharpness
        RandomShear RandomTranslation RandomWidth RandomZoom ReLU RepeatVector Rescaling Reshape
        Resizing ReversibleEmbedding STFTSpectrogram SeparableConv1D SeparableConv2D
        SeparableConvolution1D SeparableConvolution2D SimpleRNN SimpleRNNCell Softmax
        Solarization SpatialDropout1D SpatialDropout2D SpatialDropout3D SpectralNormalization
        StackedRNNCells StringLookup Subtract TFSMLayer TextVectorization ThresholdedReLU
        TimeDistributed TorchModuleWrapper UnitNormalization UpSampling1D UpSampling2D
        UpSampling3D Wrapper ZeroPadding1D ZeroPadding2D ZeroPadding3D add average concatenate
        deserialize dot maximum minimum multiply serialize subtract
    """.split()),
    "losses": frozenset("""
        BinaryCrossentropy BinaryFocalCrossentropy CTC CategoricalCrossentropy
        CategoricalFocalCrossentropy CategoricalGeneralizedCrossEntropy CategoricalHinge Circle
        CosineSimilarity Dice Hinge Huber KLD KLDivergence LogCosh Loss MAE MAPE MSE MSLE
        MeanAbsoluteError MeanAbsolutePercentageError MeanSquaredError
        MeanSquaredLogarithmicError Poisson Reduction SparseCategoricalCrossentropy SquaredHinge
        Tversky binary_crossentropy binary_focal_crossentropy categorical_crossentropy
        categorical_focal_crossentropy categorical_generalized_cross_entropy categorical_hinge
        circle cosine_similarity ctc deserialize dice get hinge huber kld
        kullback_leibler_divergence logcosh mae mape mse msle poisson serialize
        sparse_categorical_crossentropy squared_hinge tversky
    """.split()),
    "metrics": frozenset("""
        AUC Accuracy BinaryAccuracy BinaryCrossentropy BinaryIoU CategoricalAccuracy
        CategoricalCrossentropy CategoricalHinge ConcordanceCorrelation CosineSimilarity F1Score
        FBetaScore FalseNegatives FalsePositives Hinge IoU KLD KLDivergence LogCoshError MAE
        MAPE MSE MSLE Mean MeanAbsoluteError MeanAbsolutePercentageError MeanIoU
        MeanMetricWrapper MeanSquaredError MeanSquaredLogarithmicError Metric OneHotIoU
        OneHotMeanIoU PearsonCorrelation Poisson Precision PrecisionAtRecall R2Score Recall
        RecallAtPrecision RootMeanSquaredError SensitivityAtSpecificity
        SparseCategoricalAccuracy SparseCategoricalCrossentropy SparseTopKCategoricalAccuracy
        SpecificityAtSensitivity SquaredHinge Sum TopKCategoricalAccuracy TrueNegatives
        TruePositives binary_accuracy binary_crossentropy binary_focal_crossentropy
        categorical_accuracy categorical_crossentropy categorical_focal_crossentropy
        categorical_hinge concordance_correlation deserialize get hinge huber kld
        kullback_leibler_divergence logcosh mae mape mse msle pearson_correlation poisson
        serialize sparse_categorical_accuracy sparse_categorical_crossentropy
        sparse_top_k_categorical_accuracy squared_hinge top_k_categorical_accuracy
    """.split()),
    "optimizers": frozenset("""
        Adadelta Adafactor Adagrad Adam AdamW Adamax Ftrl Lamb Lion LossScaleOptimizer
        MultiOptimizer Muon Nadam Optimizer OptimizerMap RMSprop SGD ScheduleFreeAdamW
        deserialize get legacy schedules serialize
    """.split()),
    "optimizers.schedules": frozenset("""
        CosineDecay CosineDecayRestarts ExponentialDecay InverseTimeDecay LearningRateSchedule
        PiecewiseConstantDecay PolynomialDecay deserialize serialize
    """.split()),
    "backend": frozenset("""
        abs all any arange argmax argmin backend batch_dot batch_flatten batch_get_value
        batch_normalization batch_set_value bias_add binary_crossentropy
        binary_focal_crossentropy cast cast_to_floatx categorical_crossentropy
        categorical_focal_crossentropy clear_session clip concatenate constant conv1d conv2d
        conv2d_transpose conv3d cos count_params ctc_batch_cost ctc_decode
        ctc_label_dense_to_sparse cumprod cumsum depthwise_conv2d dot dropout dtype elu epsilon
        equal eval exp expand_dims eye flatten floatx foldl foldr gather get_uid get_value
        gradients greater greater_equal hard_sigmoid image_data_format in_top_k int_shape
        is_float_dtype is_int_dtype is_keras_tensor is_sparse l2_normalize less less_equal log
        map_fn max maximum mean min minimum moving_average_update name_scope ndim not_equal
        one_hot ones ones_like permute_dimensions pool2d pool3d pow prod random_bernoulli
        random_normal random_normal_variable random_uniform random_uniform_variable relu repeat
        repeat_elements reshape resize_images resize_volumes result_type reverse rnn round
        separable_conv2d set_epsilon set_floatx set_image_data_format set_value shape sigmoid
        sign sin softmax softplus softsign sparse_categorical_crossentropy spatial_2d_padding
        spatial_3d_padding sqrt square squeeze stack standardize_dtype std stop_gradient sum
        switch tanh temporal_padding tile to_dense transpose truncated_normal update update_add
        update_sub var variable zeros zeros_like
    """.split()),
    "activations": frozenset("""
        celu deserialize elu exponential gelu get glu hard_shrink hard_sigmoid hard_silu
        hard_swish hard_tanh leaky_relu linear log_sigmoid log_softmax mish relu relu6 selu
        serialize sigmoid silu soft_shrink softmax softplus softsign sparse_plus sparse_sigmoid
        sparsemax squareplus swish tanh tanh_shrink threshold
    """.split()),
    "callbacks": frozenset("""
        BackupAndRestore CSVLogger Callback CallbackList EarlyStopping History LambdaCallback
        LearningRateScheduler ModelCheckpoint OrbaxCheckpoint ProgbarLogger ReduceLROnPlateau
        RemoteMonitor SwapEMAWeights TensorBoard TerminateOnNaN
    """.split()),
    "models": frozenset("""
        Model Sequential clone_model load_model model_from_json save_model
    """.split()),
    "datasets": frozenset("""
        boston_housing california_housing cifar10 cifar100 fashion_mnist imdb mnist reuters
    """.split()),
    "initializers": frozenset("""
        Constant GlorotNormal GlorotUniform HeNormal HeUniform Identity IdentityInitializer
        Initializer LecunNormal LecunUniform Ones Orthogonal OrthogonalInitializer RandomNormal
        RandomUniform STFT STFTInitializer TruncatedNormal VarianceScaling Zeros constant
        deserialize get glorot_normal glorot_uniform he_normal he_uniform identity lecun_normal
        lecun_uniform ones orthogonal random_normal random_uniform serialize stft
        truncated_normal variance_scaling zeros
    """.split()),
    "regularizers": frozenset("""
        L1 L1L2 L2 OrthogonalRegularizer Regularizer deserialize get l1 l1_l2 l2
        orthogonal_regularizer serialize
    """.split()),
    "mixed_precision": frozenset("""
        DTypePolicy LossScaleOptimizer Policy dtype_policy global_policy set_dtype_policy
        set_global_policy
    """.split()),
    "preprocessing": frozenset("""
        image image_dataset_from_directory sequence text text_dataset_from_directory
        timeseries_dataset_from_array
    """.split()),
    "preprocessing.sequence": frozenset("""
        TimeseriesGenerator make_sampling_table pad_sequences skipgrams
    """.split()),
    "preprocessing.text": frozenset("""
        Tokenizer hashing_trick one_hot text_to_word_sequence tokenizer_from_json
    """.split()),
    "preprocessing.image": frozenset("""
        DirectoryIterator ImageDataGenerator Iterator NumpyArrayIterator apply_affine_transform
        apply_brightness_shift apply_channel_shift array_to_img img_to_array load_img
        random_brightness random_channel_shift random_rotation random_shear random_shift
        random_zoom save_img smart_resize
    """.split()),
    "utils": frozenset("""
        Config CustomObjectScope FeatureSpace Progbar PyDataset Sequence array_to_img
        audio_dataset_from_directory bounding_boxes clear_session custom_object_scope
        deserialize_keras_object disable_interactive_logging enable_interactive_logging
        get_custom_objects get_file get_registered_name get_registered_object get_source_inputs
        image_dataset_from_directory img_to_array is_interactive_logging_enabled is_keras_tensor
        legacy load_img model_to_dot normalize pack_x_y_sample_weight pad_sequences plot_model
        register_keras_serializable save_img serialize_keras_object set_random_seed
        split_dataset standardize_dtype text_dataset_from_directory
        timeseries_dataset_from_array to_categorical unpack_x_y_sample_weight
    """.split()),
}


def missing(module: str, name: str) -> AttributeError:
    """The AttributeError for ``tf.keras[.module].name`` that tfgraph_edu lacks."""
    label = "tf.keras" + (f".{module}" if module != "keras" else "")
    if name in TF_NAMES.get(module, ()):
        return AttributeError(f"module '{label}' has no attribute '{name}': TF 2.21 has "
                              f"{label}.{name}, tfgraph_edu does not implement it yet.")
    return AttributeError(f"module '{label}' has no attribute '{name}'")
