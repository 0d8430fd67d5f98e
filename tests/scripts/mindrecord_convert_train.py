"""The MindRecord tutorial: FileWriter with a schema and index fields, MindDataset reading it
back (decode, resize, normalize), then training on it."""
import os
import tempfile

import numpy as np
from PIL import Image
import io

import mindspore.dataset as ds
import mindspore.dataset.vision as vision
import mindspore.dataset.transforms as transforms
import mindspore.nn as nn
from mindspore import Model, dtype as mstype, set_seed
from mindspore.mindrecord import FileWriter

from synthetic_data import hwc_uint8_images

if __name__ == "__main__":
    set_seed(7)
    ds.config.set_seed(7)
    images, labels = hwc_uint8_images(n=96, classes=3, size=16)
    path = os.path.join(tempfile.mkdtemp(), "train.mindrecord")
    writer = FileWriter(file_name=path, shard_num=1, overwrite=True)
    schema = {"file_name": {"type": "string"}, "label": {"type": "int32"},
              "data": {"type": "bytes"}}
    writer.add_schema(schema, "synthetic image schema")
    writer.add_index(["file_name", "label"])
    rows = []
    for i, (image, label) in enumerate(zip(images, labels)):
        buffer = io.BytesIO()
        Image.fromarray(image).save(buffer, format="PNG")
        rows.append({"file_name": f"{i:04d}.png", "label": int(label), "data": buffer.getvalue()})
    writer.write_raw_data(rows)
    writer.commit()

    data_set = ds.MindDataset(dataset_files=path, columns_list=["data", "label"], shuffle=True)
    assert data_set.get_dataset_size() == 96
    data_set = data_set.map(operations=[vision.Decode(), vision.Resize((12, 12)),
                                        vision.Normalize(mean=[127.5] * 3, std=[127.5] * 3),
                                        vision.HWC2CHW()], input_columns="data")
    data_set = data_set.map(operations=transforms.TypeCast(mstype.int32), input_columns="label")
    data_set = data_set.batch(16, drop_remainder=True)
    net = nn.SequentialCell([nn.Conv2d(3, 8, 3), nn.ReLU(), nn.MaxPool2d(2, 2), nn.Flatten(),
                             nn.Dense(8 * 6 * 6, 3)])
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.02, 0.9), metrics={"accuracy"})
    model.train(5, data_set)
    acc = model.eval(data_set)["accuracy"]
    print("accuracy:", acc)
    assert acc > 0.9
