"""The dataset pipelines of MindSpore model-zoo training scripts (their ``create_dataset``
functions), written again for tools/zoo_pipelines_vs_mindspore.py with the same API calls used
the same way: sources (MindDataset over files FileWriter writes, GeneratorDataset over a class
with ``__getitem__``/``__len__`` and a sampler class of the script's own, ImageFolderDataset,
Cifar10Dataset, NumpySlicesDataset and zip), maps of vision ops and of Python functions that
take and give several columns (lambdas, closures, callable objects, in worker processes too),
``project``, ``batch`` with a ``per_batch_map`` given a BatchInfo, ``padded_batch`` and
``repeat``. Every draw is fixed: random vision ops with probabilities of 0 or 1 and ranges of
one value, the scripts' own augmentations with a numpy RandomState seeded by the row (never
the global one), samplers that shuffle seeded by the epoch as the scripts' are; so both
libraries must serve the same batches. A case holds only numbers drawn from its seed; each
interpreter writes its files from them (numpy and Pillow, the same versions: MindSpore's
interpreter imports this module too, never this package)."""
import io
import os

import numpy as np

import pipeline_sources_for_differential as file_sources
import zoo_detection_recipes as detection
from zoo_data_for_differential import (ENCODED, MEAN, STD, Context,  # noqa: F401 (ENCODED)
                                       classification_label, color_adjust, common, draw_color,
                                       encoded, finish, nearest, one_hot, pixels, row_random,
                                       shard_kwargs)


# --- classification: ImageNet folders (ResNet, MobileNetV2), CIFAR-10 (ResNet) ---------------


def draw_imagenet(r):
    case = common(r, mistakes=("no crop",))
    case.update(height=r.randint(10, 26), width=r.randint(10, 26), size=r.randint(6, 14),
                classes=r.randint(1, 3), flip=r.choice([0.0, 1.0]), jpeg=r.random() < 0.8,
                color=r.choice([None, None, draw_color(r)]),
                pil=r.random() < 0.3, decode_first=r.random() < 0.3,
                one_hot=r.random() < 0.25, take=r.choice([None, None, None, 2, 5]))
    case["resize"] = case["size"] + r.randint(0, 4)
    if case["pil"]:     # on a PIL image its order of draws moves pixels even with fixed ranges
        case["color"] = None    # (MindSpore's own runs differ by up to 4 levels)
    # an interpolating resize rounds: a level of the uint8 image is 1 / std after Normalize
    # (ToTensor's / 255 and the PIL path's std / 255 cancel); a colour adjustment scales it
    case["tolerance"] = {"image": (2 if case["color"] else 1) / min(STD) + 1e-5}
    return case


def build_imagenet(context):
    """ResNet's create_dataset2 and MobileNetV2's create_dataset over an ImageFolder; with
    ``pil``, EfficientNet's PIL path (Decode(to_pil=True) ... ToTensor, Normalize of CHW)."""
    case, vision = context.case, context.vision
    rng = np.random.RandomState(case["seed"])
    images = [pixels(rng, case["height"], case["width"]) if case["train"] or i == 0 else
              pixels(rng, rng.randint(8, 26), rng.randint(8, 26)) for i in range(case["rows"])]
    root = context.image_folder(images, case["classes"], "JPEG" if case["jpeg"] else "PNG")
    data = context.ds.ImageFolderDataset(root, num_parallel_workers=case["workers"],
                                         shuffle=False, **shard_kwargs(case))
    ratio = case["width"] / case["height"]      # a crop of the whole image, at every draw
    if case["train"] and case["pil"]:
        ops = [vision.Decode(to_pil=True), vision.RandomResizedCrop(
            case["size"], scale=(1.0, 1.0), ratio=(ratio, ratio))]
    elif case["train"] and case["decode_first"]:
        ops = [vision.Decode(), vision.RandomResizedCrop(case["size"], scale=(1.0, 1.0),
                                                         ratio=(ratio, ratio))]
    elif case["train"]:
        ops = [vision.RandomCropDecodeResize(case["size"], scale=(1.0, 1.0),
                                             ratio=(ratio, ratio))]
    else:
        ops = [vision.Decode(to_pil=case["pil"]), vision.Resize(case["resize"])]
        ops += [] if case["mistake"] == "no crop" else [vision.CenterCrop(case["size"])]
    if case["train"]:
        ops.append(vision.RandomHorizontalFlip(prob=case["flip"]))
        if case["color"]:
            ops.append(color_adjust(vision, case["color"]))
    ops += [vision.ToTensor(), vision.Normalize(mean=[m / 255 for m in MEAN], std=[
        s / 255 for s in STD], is_hwc=False)] if case["pil"] else [
        vision.Normalize(mean=MEAN, std=STD), vision.HWC2CHW()]
    data = data.map(operations=ops, input_columns="image", num_parallel_workers=case["workers"])
    if case["one_hot"]:         # label smoothing's one-hot labels (EfficientNet, Inception)
        data = data.map(operations=[context.lib.transforms.OneHot(case["classes"]),
                                    context.lib.transforms.TypeCast(context.lib.mstype.float32)],
                        input_columns="label", num_parallel_workers=case["workers"])
        return finish(context, data)
    return finish(context, classification_label(context, data))


def draw_cifar(r):
    case = common(r, mistakes=None)
    case.update(padding=r.choice([0, 2, 4]), flip=r.choice([0.0, 1.0]),
                size=r.choice([32, 32, 16, 24, 40]), float16=r.random() < 0.3)
    if case["size"] != 32:
        case["tolerance"] = {"image": 1 / 255 / 0.1994 + 1e-5}
    return case


def build_cifar(context):
    """ResNet's create_dataset over CIFAR-10's binary batches (MindSpore reads whole files of
    10,000 records: num_samples serves a few)."""
    case, vision = context.case, context.vision
    folder = context.path("cifar")
    os.makedirs(folder)
    file_sources.write_cifar(folder, {"seed": case["seed"], "rows": file_sources.CIFAR_RECORDS},
                             fine=False)
    data = context.ds.Cifar10Dataset(folder, usage="test", num_samples=case["rows"],
                                     shuffle=False, num_parallel_workers=case["workers"],
                                     **shard_kwargs(case))
    side, pad = 32 + 2 * case["padding"], case["padding"]
    ops = [vision.RandomCrop((side, side), (pad, pad, pad, pad)),
           vision.RandomHorizontalFlip(prob=case["flip"])] if case["train"] else []
    ops += [vision.Resize((case["size"], case["size"])), vision.Rescale(1.0 / 255.0, 0.0),
            vision.Normalize([0.4914, 0.4822, 0.4465], [0.2023, 0.1994, 0.2010]),
            vision.HWC2CHW()]
    if case["float16"]:         # the scripts' Ascend float16 input
        ops.append(context.lib.transforms.TypeCast(context.lib.mstype.float16))
    data = data.map(operations=ops, input_columns="image", num_parallel_workers=case["workers"])
    return finish(context, classification_label(context, data))


# --- segmentation: DeepLabV3 over MindRecord, UNet ---------------------------------------------


def draw_deeplab(r):
    case = common(r)
    case.update(crop=r.choice([8, 12, 16]), scales=sorted([r.choice([0.5, 1.0, 1.5])
                                                            for _ in range(2)]))
    return case


def deeplab_preprocess(image, label, crop, scales, ignore=255):
    """DeepLab's preprocess_: a random scale, padding with the ignored label, a random crop
    and flip (draws seeded by the label), the image normalized and made CHW."""
    from PIL import Image
    label = np.array(Image.open(io.BytesIO(label.tobytes())))
    rng = row_random(label)
    scale = rng.uniform(*scales)
    height, width = max(1, int(image.shape[0] * scale)), max(1, int(image.shape[1] * scale))
    image = (nearest(image, height, width) - MEAN) / STD
    label = nearest(label, height, width)
    pad_h, pad_w = max(crop - height, 0), max(crop - width, 0)
    image = np.pad(image, ((0, pad_h), (0, pad_w), (0, 0)))
    label = np.pad(label, ((0, pad_h), (0, pad_w)), constant_values=ignore)
    top = rng.randint(0, image.shape[0] - crop + 1)
    left = rng.randint(0, image.shape[1] - crop + 1)
    image, label = image[top:top + crop, left:left + crop], label[top:top + crop, left:left + crop]
    if rng.uniform(0.0, 1.0) > 0.5:
        image, label = image[:, ::-1], label[:, ::-1]
    return image.transpose(2, 0, 1).astype(np.float32).copy(), label.copy()


def build_deeplab(context):
    """DeepLabV3's SegDataset.get_dataset: MindRecord rows of a JPEG and a PNG label."""
    case = context.case
    rng = np.random.RandomState(case["seed"])
    rows = []
    for i in range(case["rows"]):
        height, width = rng.randint(8, 20), rng.randint(8, 20)
        rows.append({"file_name": "img%d" % i, "data": encoded(pixels(rng, height, width),
                                                                  "JPEG"),
                     "label": encoded(rng.randint(0, 4, (height, width)).astype(np.uint8),
                                      "PNG")})
    schema = {"file_name": {"type": "string"}, "data": {"type": "bytes"},
              "label": {"type": "bytes"}}
    path = context.write_mindrecord("seg.mindrecord", schema, rows)
    data = context.ds.MindDataset(path, columns_list=["data", "label"], shuffle=False,
                                  num_parallel_workers=case["workers"], **shard_kwargs(case))
    data = data.map(operations=context.vision.Decode(), input_columns=["data"])
    crop, scales = case["crop"], case["scales"]
    data = context.pymap(data, lambda image, label: deeplab_preprocess(image, label, crop,
                                                                       scales),
                         ["data", "label"], ["data", "label"],
                         num_parallel_workers=case["workers"])
    data = data.batch(case["batch"], drop_remainder=True)
    return data.repeat(case["repeat"]) if case["repeat"] else data


def draw_unet(r):
    case = common(r)
    case.update(size=r.choice([12, 16]), resize=r.choice([8, 10, 12]), crop=r.random() < 0.5,
                multiclass=r.random() < 0.5, augment=r.random() < 0.5, classes=r.choice([2, 3]),
                sampler=r.random() < 0.3, interpolation=r.choice(["BILINEAR", "NEAREST"]))
    if not case["multiclass"] and case["interpolation"] == "BILINEAR":
        case["tolerance"] = {"image": 1e-5}
    return case


def unet_post_process(img, mask):
    img = np.expand_dims(img, axis=0)
    return img, one_hot((mask > 0.5).astype(np.int32), 2)


class MultiClassDataset:
    """UNet's multi-class source: an image and its mask per row, column_names a property."""

    def __init__(self, case):
        rng = np.random.RandomState(case["seed"])
        self.rows = []
        for _ in range(case["rows"]):
            height, width = rng.randint(10, 24), rng.randint(10, 24)
            self.rows.append((pixels(rng, height, width),
                              rng.randint(0, case["classes"], (height, width)).astype(np.uint8)))

    def __getitem__(self, index):
        return self.rows[index]

    def __len__(self):
        return len(self.rows)

    @property
    def column_names(self):
        return ["image", "mask"]


def unet_preprocess(img, mask, classes, size, augment):
    """UNet's preprocess_img_mask: a random resize, crop and flip (draws seeded by the mask)."""
    rng = row_random(mask)
    if augment:
        width, height = rng.randint(size, size * 3 // 2), rng.randint(size, size * 3 // 2)
        img, mask = nearest(img, height, width), nearest(mask, height, width)
        dw, dh = rng.randint(0, width - size + 1), rng.randint(0, height - size + 1)
        img, mask = img[dh:dh + size, dw:dw + size], mask[dh:dh + size, dw:dw + size]
        if rng.random_sample() > 0.5:
            axis = rng.randint(0, 2)
            img, mask = np.flip(img, axis), np.flip(mask, axis)
    else:
        img, mask = nearest(img, size, size), nearest(mask, size, size)
    img = ((img.astype(np.float32) - 127.5) / 127.5).transpose(2, 0, 1)
    return img, one_hot(mask.astype(np.int32), classes)


def build_unet(context):
    """UNet's create_dataset (ISBI: NumpySlicesDataset of images and of masks, vision maps,
    zip, project, a Python map) or create_multi_class_dataset (GeneratorDataset of a class)."""
    case, ds, vision = context.case, context.ds, context.vision
    def sharding():
        """The shards as arguments or, with ``sampler``, a DistributedSampler (a new one for
        each source: a sampler belongs to one)."""
        kwargs = shard_kwargs(case)
        if case["sampler"] and kwargs:
            return {"sampler": ds.DistributedSampler(kwargs["num_shards"], kwargs["shard_id"],
                                                     shuffle=False)}
        return kwargs

    if case["multiclass"]:
        source = MultiClassDataset(case)
        kwargs = sharding()
        data = ds.GeneratorDataset(source, source.column_names, shuffle=None if "sampler" in
                                   kwargs else False, num_parallel_workers=case["workers"],
                                   python_multiprocessing=case["processes"], **kwargs)
        classes, size, augment = case["classes"], (case["size"],) * 2, case["train"] and case[
            "augment"]
        data = context.pymap(data, lambda image, mask: unet_preprocess(
            image, mask, classes, size[0], augment), source.column_names, source.column_names,
            num_parallel_workers=case["workers"])
        return data.batch(case["batch"], drop_remainder=case["drop"],
                          num_parallel_workers=case["workers"])
    rng = np.random.RandomState(case["seed"])
    images = np.stack([pixels(rng, case["size"], case["size"], 1) for _ in range(case["rows"])])
    masks = (rng.rand(case["rows"], case["size"], case["size"]) < 0.5).astype(np.uint8) * 255
    images = ds.NumpySlicesDataset(data={"image": images}, shuffle=False,
                                   **(sharding() or {"sampler": None}))
    masks = ds.NumpySlicesDataset(data={"mask": masks}, shuffle=False,
                                  **(sharding() or {"sampler": None}))
    resize = vision.Resize(size=(case["resize"], case["resize"]),
                           interpolation=getattr(vision.Inter, case["interpolation"]))
    pad = vision.Pad(padding=(case["size"] - case["resize"]) // 2)
    images = images.map(input_columns="image", operations=[vision.Rescale(1.0 / 127.5, -1),
                                                           resize, pad])
    masks = masks.map(input_columns="mask", operations=[vision.Rescale(1.0 / 255.0, 0), resize,
                                                        pad])
    data = ds.zip((images, masks)).project(columns=["image", "mask"])
    if case["crop"]:
        data = data.map(input_columns="mask", operations=vision.CenterCrop(size=case["resize"]))
    data = context.pymap(data, unet_post_process, ["image", "mask"])
    return data.batch(batch_size=case["batch"], drop_remainder=True)


# --- OCR: CRNN ---------------------------------------------------------


class CaptchaDataset:
    """CRNN's source: a text line's image (a fixed height, its own width; BGR as the script
    merges it) and its label, padded with the blank class or, ``ragged``, of its own length."""

    def __init__(self, case):
        rng = np.random.RandomState(case["seed"])
        self.rows, self.max_length, self.ragged = [], case["max_length"], case["ragged"]
        for _ in range(case["rows"]):
            text = rng.randint(0, 10, rng.randint(1, self.max_length + 2))
            self.rows.append((pixels(rng, 8, rng.randint(10, 30))[:, :, ::-1], text))

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, item):
        image, text = self.rows[item]
        if self.ragged:
            return image, text[:self.max_length].astype(np.int64)
        label = np.full(self.max_length, 10)
        label[:min(len(text), self.max_length)] = text[:self.max_length]
        return image, label


def draw_crnn(r):
    case = common(r, mistakes=None)
    case.update(height=r.choice([8, 16]), width=r.choice([16, 24]), max_length=r.randint(2, 5),
                ragged=r.random() < 0.5, per_batch=r.random() < 0.5)
    case["tolerance"] = {"image": 1 / 127.5 + 1e-5}
    return case


def pad_labels(images, labels, batch_info):
    """A per_batch_map that pads a batch's labels to its longest and adds their lengths."""
    longest = max(len(label) for label in labels)
    lengths = [np.array(len(label), np.int32) for label in labels]
    return images, [np.pad(label, (0, longest - len(label)), constant_values=10)
                    for label in labels], lengths


def build_crnn(context):
    """CRNN's create_dataset; labels of their own lengths through padded_batch, or a
    per_batch_map that pads them and adds a column of their lengths."""
    case, vision = context.case, context.vision
    data = context.ds.GeneratorDataset(CaptchaDataset(case), ["image", "label"], shuffle=False,
                                       **shard_kwargs(case))
    image_trans = [vision.Resize((case["height"], case["width"])),
                   vision.Normalize([127.5, 127.5, 127.5], std=[127.5, 127.5, 127.5]),
                   vision.HWC2CHW()]
    data = data.map(operations=image_trans, input_columns=["image"],
                    num_parallel_workers=case["workers"])
    data = data.map(operations=[context.lib.transforms.TypeCast(context.lib.mstype.int32)],
                    input_columns=["label"], num_parallel_workers=case["workers"])
    if not case["ragged"]:
        return data.batch(case["batch"], drop_remainder=True)
    if case["per_batch"]:
        return data.batch(case["batch"], drop_remainder=case["drop"], per_batch_map=pad_labels,
                          input_columns=["image", "label"],
                          output_columns=["image", "label", "label_length"])
    return data.padded_batch(case["batch"], drop_remainder=case["drop"],
                             pad_info={"label": ([case["max_length"]], 10)})


# --- text: Transformer's buckets of sequence lengths -------------------------------------------

TEXT_COLUMNS = ["source_eos_ids", "source_eos_mask", "target_sos_ids", "target_sos_mask",
                "target_eos_ids", "target_eos_mask"]


def draw_transformer(r):
    case = common(r, mistakes=None)
    case["buckets"] = sorted(r.sample([4, 8, 12], r.randint(1, 3)))
    return case


def sentence_rows(rng, rows, length):
    """Rows of Transformer's MindRecord: ids padded with 0 to ``length``, and their masks."""
    out = []
    for _ in range(rows):
        row = {}
        for name in TEXT_COLUMNS[::2]:
            ids = np.zeros(length, np.int64)
            used = rng.randint(1, length + 1)
            ids[:used] = rng.randint(3, 1000, used)
            row[name], row[name.replace("ids", "mask")] = ids, (ids > 0).astype(np.int64)
        out.append(row)
    return out


def build_transformer(context):
    """Transformer's create_transformer_dataset: a MindRecord file per bucket of sequence
    lengths, each read, cast to int32 column by column and batched, the buckets' batches
    concatenated with ``+``."""
    case, ds = context.case, context.ds
    rng = np.random.RandomState(case["seed"])
    schema = {name: {"type": "int64", "shape": [-1]} for name in TEXT_COLUMNS}
    type_cast_op = context.lib.transforms.TypeCast(context.lib.mstype.int32)
    data = None
    for length in case["buckets"]:
        path = context.write_mindrecord("transformer_%d.mindrecord" % length, schema,
                                        sentence_rows(rng, case["rows"], length))
        bucket = ds.MindDataset(path, columns_list=TEXT_COLUMNS, shuffle=False,
                                **shard_kwargs(case))
        for name in TEXT_COLUMNS:
            bucket = bucket.map(operations=type_cast_op, input_columns=name)
        bucket = bucket.batch(case["batch"], drop_remainder=True)
        data = bucket if data is None else data + bucket
    return data


RECIPES = {
    "imagenet": (draw_imagenet, build_imagenet),
    "cifar": (draw_cifar, build_cifar),
    "ssd": (detection.draw_ssd, detection.build_ssd),
    "rcnn": (detection.draw_rcnn, detection.build_rcnn),
    "yolo": (detection.draw_yolo, detection.build_yolo),
    "retinaface": (detection.draw_retinaface, detection.build_retinaface),
    "deeplab": (draw_deeplab, build_deeplab),
    "unet": (draw_unet, build_unet),
    "crnn": (draw_crnn, build_crnn),
    "openpose": (detection.draw_openpose, detection.build_openpose),
    "transformer": (draw_transformer, build_transformer),
}


def random_case(r):
    name = r.choice(sorted(RECIPES))
    return dict(RECIPES[name][0](r), recipe=name)


def build(library, case, directory):
    return RECIPES[case["recipe"]][1](Context(library, case, directory))
