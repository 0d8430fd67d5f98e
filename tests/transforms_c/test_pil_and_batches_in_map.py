"""Inside the dataset engine's map: a Compose that decodes to a PIL image and crops it (the engine
still hands ops arrays, a Compose passes the PIL image from op to op, which crop and resize it
with Pillow), and rows that are videos
<T, H, W, C> through the ops that MindSpore applies image by image."""
import numpy as np
from PIL import Image

import minddata as ds
import minddata.transforms as transforms
import minddata.vision as vision

from tests.transforms_c.tc_samples import natural_rgb, sample_jpeg


def _rows(dataset):
    return [row[0] for row in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def test_compose_with_a_pil_decode_in_map():
    images = [sample_jpeg(100 + 4 * i, 120, i % 2) for i in range(4)]

    def mapped(decode):
        data = ds.GeneratorDataset(lambda: ((img,) for img in images), column_names=["image"],
                                   shuffle=False)
        chain = transforms.Compose([decode, vision.CenterCrop(64), vision.Resize((24, 32)),
                                    vision.RandomHorizontalFlip(1.0), vision.ToTensor()])
        return _rows(data.map(chain, input_columns=["image"]))

    pil_rows = mapped(vision.Decode(to_pil=True))
    assert [r.shape for r in pil_rows] == [(3, 24, 32)] * 4
    # measured in MindSpore 2.10: after a PIL decode the Compose crops and resizes with Pillow
    for image, ours in zip(images, pil_rows):
        pil = vision.Decode(to_pil=True)(image)
        top, left = round((pil.height - 64) / 2), round((pil.width - 64) / 2)
        pillow = pil.crop((left, top, left + 64, top + 64)).resize((32, 24), Image.BILINEAR)
        expected = vision.ToTensor().apply((pillow.transpose(Image.FLIP_LEFT_RIGHT),), 0)[0]
        np.testing.assert_array_equal(ours, expected)


def test_video_rows_through_map():
    frames = np.stack([natural_rgb(40, 50, seed=i % 2) for i in range(6)]).reshape(2, 3, 40, 50, 3)
    ops = [vision.Resize((20, 24)), vision.HorizontalFlip(), vision.Normalize([0.0], [255.0])]
    data = ds.NumpySlicesDataset(frames, column_names=["video"], shuffle=False)
    rows = _rows(data.map(ops, input_columns=["video"]))
    assert [r.shape for r in rows] == [(3, 20, 24, 3)] * 2
    compose = transforms.Compose(ops)
    for video, out in zip(frames, rows):
        np.testing.assert_array_equal(out, np.stack([compose(frame) for frame in video]))


def test_op_list_after_a_pil_decode_runs_the_pillow_path():
    # measured in MindSpore 2.10: a fusable run after Decode(to_pil=True) in a map's op list
    # crops and resizes the PIL image with Pillow, ToTensor then gets its array
    images = [sample_jpeg(100 + 4 * i, 120, i % 2) for i in range(3)]
    data = ds.GeneratorDataset(lambda: ((img,) for img in images), column_names=["image"],
                               shuffle=False)
    ops = [vision.Decode(to_pil=True), vision.CenterCrop(64), vision.Resize((24, 32)),
           vision.ToTensor()]
    for image, out in zip(images, _rows(data.map(ops, input_columns=["image"]))):
        pil = vision.Decode(to_pil=True)(image)
        top, left = round((pil.height - 64) / 2), round((pil.width - 64) / 2)
        pillow = pil.crop((left, top, left + 64, top + 64)).resize((32, 24), Image.BILINEAR)
        np.testing.assert_array_equal(out, vision.ToTensor()(np.asarray(pillow)))
