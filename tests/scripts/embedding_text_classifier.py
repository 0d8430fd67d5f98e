"""A text classifier in the zoo's style (TextCNN-like): nn.Embedding, nn.Conv1d over the
sequence, ReduceMax-free pooling with ReduceMean, LayerNorm, Dropout, Adam."""
import mindspore as ms
import mindspore.dataset as ds
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import Model
from mindspore.train.callback import LossMonitor

from synthetic_data import token_sequences


class TextCNN(nn.Cell):
    def __init__(self, vocab_len, word_len, num_classes, vec_length=16):
        super(TextCNN, self).__init__()
        self.embedding = nn.Embedding(vocab_len, vec_length, embedding_table="uniform")
        self.transpose = ops.Transpose()
        self.conv = nn.Conv1d(vec_length, 32, 3, pad_mode="same", has_bias=True)
        self.relu = nn.ReLU()
        self.pool = ops.ReduceMean(keep_dims=False)
        self.norm = nn.LayerNorm((32,))
        self.drop = nn.Dropout(p=0.1)
        self.fc = nn.Dense(32, num_classes)

    def construct(self, x):
        x = self.embedding(x)                       # (N, L, E)
        x = self.transpose(x, (0, 2, 1))            # (N, E, L)
        x = self.relu(self.conv(x))
        x = self.pool(x, 2)
        return self.fc(self.drop(self.norm(x)))


if __name__ == "__main__":
    ms.set_seed(8)
    ds.config.set_seed(8)
    ids, labels = token_sequences(n=320, length=12, vocab=50)
    train = ds.NumpySlicesDataset({"ids": ids[:256], "label": labels[:256]}).batch(32)
    test = ds.NumpySlicesDataset({"ids": ids[256:], "label": labels[256:]}).batch(32)
    net = TextCNN(vocab_len=50, word_len=12, num_classes=2)
    opt = nn.Adam(net.trainable_params(), learning_rate=0.01, weight_decay=1e-5)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt,
                  metrics={"acc"})
    model.train(8, train, callbacks=[LossMonitor(8)])
    acc = model.eval(test)
    print("accuracy:", acc)
    assert acc["acc"] > 0.9, acc
