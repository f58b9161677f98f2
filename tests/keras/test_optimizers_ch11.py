"""The Keras optimizer options of handson-ml3 chapter 11 against Keras 3 in TF 2.21:
schedules as learning rates, Adagrad, Adamax, AdamW, SGD with Nesterov momentum, gradient
clipping and weight decay.  Every expected number below was recorded from TF 2.21 (run
once on the same steps: loss = sum(w*w*[1,2,3]) + b**3 from w=[1,-2,3], b=0.5)."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf

S = tf.keras.optimizers.schedules


def _steps(opt, n=3, function=False):
    w, b = tf.Variable([1.0, -2.0, 3.0]), tf.Variable(0.5)

    def step():
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(w * w * tf.constant([1.0, 2.0, 3.0])) + b * b * b
        opt.apply_gradients(zip(t.gradient(loss, [w, b]), [w, b]))
    if function:
        step = tf.function(step)
    out = []
    for _ in range(n):
        step()
        out.append((w.numpy().tolist(), float(b.numpy())))
    return out


def _close(got, want, rtol=1e-5):
    for (gw, gb), (ww, wb) in zip(got, want, strict=True):
        np.testing.assert_allclose(gw, ww, rtol=rtol, atol=1e-7)
        np.testing.assert_allclose(gb, wb, rtol=rtol, atol=1e-7)


@pytest.mark.parametrize("schedule, want", [  # recorded from TF 2.21, steps 0 1 2 3 5 7
    (lambda: S.ExponentialDecay(0.1, 2, 0.5),
     [0.1, 0.0707106813788414, 0.05, 0.0353553406894207, 0.01767767034471035,
      0.008838835172355175]),
    (lambda: S.ExponentialDecay(0.1, 2, 0.5, staircase=True),
     [0.1, 0.1, 0.05, 0.05, 0.025, 0.0125]),
    (lambda: S.InverseTimeDecay(0.1, 2, 1.0),
     [0.1, 0.06666667014360428, 0.05, 0.04, 0.02857142873108387, 0.02222222276031971]),
    (lambda: S.InverseTimeDecay(0.1, 2, 1.0, staircase=True),
     [0.1, 0.1, 0.05, 0.05, 0.03333333507180214, 0.025]),
    (lambda: S.PiecewiseConstantDecay([1, 2], [0.1, 0.05, 0.01]),
     [0.1, 0.1, 0.05, 0.01, 0.01, 0.01]),
    (lambda: S.PolynomialDecay(0.1, 4),
     [0.1, 0.07502499967813492, 0.050050001591444016, 0.025074999779462814, 1e-4, 1e-4]),
    (lambda: S.PolynomialDecay(0.1, 4, end_learning_rate=0.01, power=2.0),
     [0.1, 0.06062500178813934, 0.0325, 0.015625, 0.01, 0.01]),
    (lambda: S.PolynomialDecay(0.1, 4, power=0.5, cycle=True),
     [0.1, 0.08661593496799469, 0.07073996961116791, 0.050050001591444016,
      0.06127601116895676, 0.03541998565196991]),
    (lambda: S.CosineDecay(0.1, 3), [0.1, 0.075, 0.025, 0.0, 0.0, 0.0]),
    (lambda: S.CosineDecay(0.1, 3, alpha=0.2), [0.1, 0.08, 0.04, 0.02, 0.02, 0.02]),
    (lambda: S.CosineDecay(0.0, 4, warmup_target=0.1, warmup_steps=2),
     [0.0, 0.05, 0.1, 0.08535534143447876, 0.014644661918282509, 0.0]),
])
def test_schedule_values(schedule, want):
    sch = schedule()
    got = [float(sch(s)) for s in [0, 1, 2, 3, 5, 7]]
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    assert sch(1).dtype == tf.float32
    assert repr(sch).startswith("<keras.src.optimizers.schedules.learning_rate_schedule."
                                f"{type(sch).__name__} object at 0x")


def test_piecewise_takes_an_int64_step():
    sch = S.PiecewiseConstantDecay([1, 2], [0.1, 0.05, 0.01])
    got = [float(sch(tf.constant(s, tf.int64))) for s in range(4)]
    np.testing.assert_allclose(got, [0.1, 0.1, 0.05, 0.01], rtol=1e-6)


def test_sgd_with_a_schedule_reads_it_before_each_step():
    tf.keras.backend.clear_session()
    opt = tf.keras.optimizers.SGD(learning_rate=S.ExponentialDecay(0.1, 2, 0.5))
    _close(_steps(opt), [
        ([0.800000011920929, -1.2000000476837158, 1.1999999284744263], 0.42500001192092896),
        ([0.6868629455566406, -0.860588788986206, 0.6908830404281616], 0.3866836726665497),
        ([0.6181766390800476, -0.6884710192680359, 0.4836181402206421], 0.36425504088401794)])
    # no learning-rate variable; learning_rate is the schedule at `iterations` (3)
    assert [(v.path, v.numpy().tolist()) for v in opt.variables] == [("sgd/iteration", 3)]
    np.testing.assert_allclose(opt.learning_rate.numpy(), 0.0353553406894207, rtol=1e-6)
    with pytest.raises(TypeError, match="created with a `LearningRateSchedule`.*not settable"):
        opt.learning_rate = 0.3


def test_schedules_in_a_function_and_with_adam():
    opt = tf.keras.optimizers.SGD(
        learning_rate=S.PiecewiseConstantDecay([1, 2], [0.1, 0.05, 0.01]), momentum=0.5)
    _close(_steps(opt, function=True), [
        ([0.800000011920929, -1.2000000476837158, 1.1999999284744263], 0.42500001192092896),
        ([0.5399999618530273, -0.3200000524520874, -0.4200000762939453], 0.3333125114440918),
        ([0.3559999465942383, 0.1839999556541443, -1.1040000915527344], 0.27080416679382324)])
    opt = tf.keras.optimizers.Adam(learning_rate=S.InverseTimeDecay(0.1, 2, 1.0))
    _close(_steps(opt), [
        ([0.900000810623169, -1.9000006914138794, 2.90000057220459], 0.40000107884407043),
        ([0.8336097002029419, -1.83344566822052, 2.8334031105041504], 0.33563119173049927),
        ([0.7840651869773865, -1.7836285829544067, 2.7835161685943604], 0.289402574300766)])


def test_sgd_nesterov():
    tf.keras.backend.clear_session()
    opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9, nesterov=True)
    _close(_steps(opt), [
        ([0.6200000047683716, -0.48000001907348633, -0.4200000762939453], 0.35749998688697815),
        ([0.2224000096321106, 0.5327999591827393, -1.3991998434066772], 0.2239004224538803),
        ([-0.1083519458770752, 0.8665919899940491, -0.9121918678283691], 0.10959360748529434)])
    slots = [v.numpy().tolist() for v in opt.variables[2:]]
    np.testing.assert_allclose(slots[0], [-0.31807997822761536, 0.6076800227165222,
                                          -0.39167994260787964], rtol=1e-5)
    np.testing.assert_allclose(slots[1], -0.11029710620641708, rtol=1e-5)


def test_adagrad():
    tf.keras.backend.clear_session()
    opt = tf.keras.optimizers.Adagrad(learning_rate=0.1)
    assert (opt.name, opt.epsilon, opt.initial_accumulator_value) == ("adagrad", 1e-7, 0.1)
    _close(_steps(opt), [
        ([0.9012270569801331, -1.9000780582427979, 2.900015354156494], 0.407855749130249),
        ([0.8347373008728027, -1.8312299251556396, 2.8305184841156006], 0.3555864691734314),
        ([0.7822992205619812, -1.7759406566619873, 2.7743828296661377], 0.31866341829299927)])
    assert [v.path for v in opt.variables] == [
        "adagrad/iteration", "adagrad/learning_rate", "adagrad/Variable_0_accumulator",
        "adagrad/Variable_0_accumulator"]
    np.testing.assert_allclose(opt.variables[2].numpy(),
                               [10.135986328125, 175.51919555664062, 915.289306640625],
                               rtol=1e-6)
    np.testing.assert_allclose(opt.variables[3].numpy(), 1.0554275512695312, rtol=1e-6)


def test_adagrad_options_in_a_function():
    opt = tf.keras.optimizers.Adagrad(learning_rate=0.1, initial_accumulator_value=0.5,
                                      epsilon=1e-3)
    _close(_steps(opt, function=True), [
        ([0.9057295918464661, -1.9003890752792358, 2.9000773429870605], 0.42727354168891907),
        ([0.8407955765724182, -1.8316479921340942, 2.830601930618286], 0.3803693354129791),
        ([0.7891705632209778, -1.7764160633087158, 2.774477958679199], 0.3455270528793335)])
    np.testing.assert_allclose(opt.variables[3].numpy(), 1.550855040550232, rtol=1e-6)


def test_adamax():
    tf.keras.backend.clear_session()
    opt = tf.keras.optimizers.Adamax(learning_rate=0.1)
    _close(_steps(opt), [
        ([0.9000000357627869, -1.899999976158142, 2.9000000953674316], 0.40000003576278687),
        ([0.8051683902740479, -1.8025341033935547, 2.8016562461853027], 0.3188662827014923),
        ([0.7154995799064636, -1.7076482772827148, 2.705009698867798], 0.2525824010372162)])
    got = [(v.path, v.numpy().tolist()) for v in opt.variables]
    assert [p for p, _ in got] == [
        "adamax/iteration", "adamax/learning_rate", "adamax/Variable_0_momentum",
        "adamax/Variable_0_norm", "adamax/Variable_0_momentum", "adamax/Variable_0_norm"]
    for (_, value), want in zip(got[2:], [
            [0.48503369092941284, -2.053013801574707, 4.704993724822998],
            [1.9960020780563354, 7.984008312225342, 17.964017868041992],
            0.1344527304172516, 0.7485007643699646]):
        np.testing.assert_allclose(value, want, rtol=1e-5)


def test_adamw_and_weight_decay_of_any_optimizer():
    tf.keras.backend.clear_session()
    opt = tf.keras.optimizers.AdamW(learning_rate=0.1, weight_decay=0.05)
    assert opt.name == "adam_w"
    _close(_steps(opt), [
        ([0.8950008153915405, -1.8900007009506226, 2.885000467300415], 0.3975010812282562),
        ([0.7909685373306274, -1.7807390689849854, 2.7706973552703857], 0.2991109788417816),
        ([0.6882724165916443, -1.6723499298095703, 2.657172679901123], 0.20778140425682068)])
    np.testing.assert_allclose(opt.variables[3].numpy(),  # velocity of w
                               [0.009695431217551231, 0.17170506715774536, 0.8990523815155029],
                               rtol=1e-5)
    opt = tf.keras.optimizers.AdamW(learning_rate=0.1)  # weight_decay=0.004
    assert opt.weight_decay == 0.004
    _close(_steps(opt, function=True), [
        ([0.8996008038520813, -1.899200677871704, 2.8988006114959717], 0.3998010754585266),
        ([0.7996566295623779, -1.7986100912094116, 2.797746419906616], 0.3030983805656433),
        ([0.7005178928375244, -1.6983524560928345, 2.6969103813171387], 0.21278497576713562)])
    _close(_steps(tf.keras.optimizers.Adam(learning_rate=0.1, weight_decay=0.1)), [
        ([0.8900008201599121, -1.8800007104873657, 2.8700006008148193], 0.395001083612442),
        ([0.7815737724304199, -1.7614107131958008, 2.741441488265991], 0.29480400681495667),
        ([0.6751035451889038, -1.6443707942962646, 2.614407539367676], 0.20241543650627136)])
    with pytest.raises(ValueError, match="`weight_decay` must be a float"):
        tf.keras.optimizers.AdamW(weight_decay=None)


@pytest.mark.parametrize("option, want", [
    ({"clipnorm": 1.0}, [
        ([0.9898985028266907, -1.9595938920974731, 2.909086227416992], 0.42500001192092896),
        ([0.9796063303947449, -1.9188451766967773, 2.8183469772338867], 0.3708125054836273),
        ([0.9691144227981567, -1.8777421712875366, 2.727790594100952], 0.32956191897392273)]),
    ({"clipvalue": 1.0}, [
        ([0.8999999761581421, -1.899999976158142, 2.9000000953674316], 0.42500001192092896),
        ([0.7999999523162842, -1.7999999523162842, 2.8000001907348633], 0.3708125054836273),
        ([0.6999999284744263, -1.6999999284744263, 2.700000286102295], 0.32956191897392273)]),
    ({"global_clipnorm": 2.0}, [
        ([0.979811429977417, -1.919245719909668, 2.818302869796753], 0.49242928624153137),
        ([0.9588395953178406, -1.8370869159698486, 2.6373345851898193], 0.4846440255641937),
        ([0.937005877494812, -1.7534222602844238, 2.457170248031616], 0.4766213595867157)]),
])
def test_gradient_clipping(option, want):
    opt = tf.keras.optimizers.SGD(learning_rate=0.1, **option)
    assert getattr(opt, next(iter(option))) == next(iter(option.values()))
    _close(_steps(opt), want)


def test_options_refused_as_keras3():
    with pytest.raises(ValueError, match="Only one of `clipnorm`, `clipvalue` and "
                                         "`global_clipnorm` can be set"):
        tf.keras.optimizers.SGD(clipnorm=1.0, clipvalue=1.0)
    with pytest.raises(ValueError, match="`decay_steps` must be > 0. Received: decay_steps=0"):
        S.ExponentialDecay(0.1, 0, 0.5)
    with pytest.raises(ValueError, match="boundaries should be 1 less than the length of "
                                         "values"):
        S.PiecewiseConstantDecay([1], [0.1])
    with pytest.raises(NotImplementedError, match="use_ema"):
        tf.keras.optimizers.Adagrad(use_ema=True)
    with pytest.raises(AttributeError, match="CosineDecayRestarts, tfgraph_edu does not"):
        S.CosineDecayRestarts  # noqa: B018


def test_schedules_module_lists_its_classes():
    names = [n for n in dir(S) if n[0] == n[0].upper()]  # as handson-ml3's cell lists them
    assert names == ["CosineDecay", "ExponentialDecay", "InverseTimeDecay",
                     "LearningRateSchedule", "PiecewiseConstantDecay", "PolynomialDecay"]
    assert "schedules" in dir(tf.keras.optimizers)


def test_by_name_in_compile():
    for name, cls in [("adagrad", "Adagrad"), ("adamax", "Adamax"), ("adamw", "AdamW")]:
        m = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
        m.compile(optimizer=name, loss="mse")
        assert type(m.optimizer).__name__ == cls
