"""Evaluation as tutorials write it: Model.eval with a dict of metric objects (nn.Accuracy,
nn.Precision, nn.Recall, nn.F1, nn.Top1CategoricalAccuracy, nn.Loss), then Model.predict and the
ROC, ConfusionMatrix and Perplexity metrics on the predictions."""
import numpy as np

import mindspore as ms
import mindspore.dataset as ds
import mindspore.nn as nn
from mindspore import Model, Tensor
from mindspore.train import ROC, ConfusionMatrix, Perplexity

from synthetic_data import vectors

if __name__ == "__main__":
    ms.set_seed(9)
    ds.config.set_seed(9)
    x, y = vectors(n=256, dim=8, classes=2, seed=6)
    data = ds.NumpySlicesDataset((x, y), ["x", "y"], shuffle=False).batch(32)
    net = nn.SequentialCell([nn.Dense(8, 16), nn.ReLU(), nn.Dense(16, 2)])
    metrics = {"accuracy": nn.Accuracy(), "precision": nn.Precision(), "recall": nn.Recall(),
               "f1": nn.F1(), "top1": nn.Top1CategoricalAccuracy(), "loss": nn.Loss()}
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Adam(net.trainable_params(), 0.02), metrics=metrics)
    model.train(5, data)
    result = model.eval(data)
    print("metrics:", result)
    assert result["accuracy"] > 0.9 and result["top1"] == result["accuracy"]
    assert result["precision"].shape == (2,) and result["f1"].min() > 0.85
    logits = model.predict(Tensor(x)).asnumpy()
    probs = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    roc = ROC(pos_label=1)
    roc.update(probs[:, 1], y)
    fpr, tpr, thresholds = roc.eval()
    auc = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))
    print("AUC:", auc)
    assert auc > 0.95
    matrix = ConfusionMatrix(num_classes=2)
    matrix.update(logits, y)
    assert matrix.eval().trace() == (logits.argmax(1) == y).sum()
    perplexity = Perplexity()
    perplexity.update(probs, y)
    assert 1.0 < perplexity.eval() < 1.5
