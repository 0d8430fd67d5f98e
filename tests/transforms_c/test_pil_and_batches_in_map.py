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
    # measured in MindSpore 2.10: after a PIL decode the Compose crops and resizes with Pillow;
    # ToTensor then gets the image's array (its C++ arithmetic: v * float32(1 / 255))
    for image, ours in zip(images, pil_rows):
        pil = vision.Decode(to_pil=True)(image)
        top, left = round((pil.height - 64) / 2), round((pil.width - 64) / 2)
        pillow = pil.crop((left, top, left + 64, top + 64)).resize((32, 24), Image.BILINEAR)
        flipped = np.asarray(pillow.transpose(Image.FLIP_LEFT_RIGHT))
        expected = flipped.transpose(2, 0, 1).astype(np.float32) * np.float32(1 / 255)
        np.testing.assert_array_equal(ours, expected)


def test_to_tensor_after_a_pil_decode_multiplies_in_map_divides_eagerly():
    # measured in MindSpore 2.10 (every value 0..255): in a map, Compose([Decode(to_pil=True),
    # ToTensor()]), the op list and two maps all give v * float32(1 / 255) (206 -> 0.80784315);
    # the same Compose called eagerly takes ToTensor's Python path, v / 255 (206 -> 0.8078432)
    pixels = np.arange(256, dtype=np.uint8).reshape(8, 32)
    rgb = np.stack([pixels, pixels[::-1], pixels], axis=2)
    import io
    buffer = io.BytesIO()
    Image.fromarray(rgb).save(buffer, "PNG")
    data = np.frombuffer(buffer.getvalue(), np.uint8)
    multiplied = rgb.transpose(2, 0, 1).astype(np.float32) * np.float32(1 / 255)
    divided = (rgb.transpose(2, 0, 1) / 255.0).astype(np.float32)
    assert not np.array_equal(multiplied, divided)

    def mapped(*maps):
        dataset = ds.NumpySlicesDataset([data], ["image"], shuffle=False)
        for ops in maps:
            dataset = dataset.map(ops, input_columns=["image"])
        return _rows(dataset)[0]

    compose = transforms.Compose([vision.Decode(to_pil=True), vision.ToTensor()])
    np.testing.assert_array_equal(mapped(compose), multiplied)
    np.testing.assert_array_equal(mapped([vision.Decode(to_pil=True), vision.ToTensor()]),
                                  multiplied)
    np.testing.assert_array_equal(mapped(vision.Decode(to_pil=True), vision.ToTensor()),
                                  multiplied)
    np.testing.assert_array_equal(np.asarray(compose(data)).reshape(divided.shape), divided)
    np.testing.assert_array_equal(vision.ToTensor()(vision.Decode(to_pil=True)(data)), divided)
    f64 = transforms.Compose([vision.Decode(to_pil=True), vision.ToTensor(np.float64)])
    np.testing.assert_array_equal(mapped(f64), multiplied.astype(np.float64))


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
