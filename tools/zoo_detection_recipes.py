"""The detection and keypoint recipes of tools/zoo_pipelines_vs_mindspore.py: SSD's, FasterRCNN's
and MaskRCNN's create_dataset over MindRecord files, YOLOv3's and YOLOv5's and RetinaFace's over
Python sources, OpenPose's (see zoo_recipes_for_differential.py)."""
import io
import os

import numpy as np

from zoo_data_for_differential import (MEAN, STD, EpochSeededSampler, color_adjust, common,
                                       draw_color, encoded, epoch_sampler, nearest, padded,
                                       pixels, random_boxes, row_random, shard_kwargs)


# --- detection: SSD, FasterRCNN and MaskRCNN over MindRecord ---------------------------------


def detection_rows(case, with_id=False, masks=False):
    """Rows of a detection MindRecord: JPEG images of random sizes and their boxes."""
    rng = np.random.RandomState(case["seed"])
    rows = []
    for i in range(case["rows"]):
        height, width = rng.randint(12, 30), rng.randint(12, 30)
        boxes = random_boxes(rng, height, width, rng.randint(1, 4))
        row = {"image": encoded(pixels(rng, height, width), "JPEG")}
        if with_id:             # SSD's [y1, x1, y2, x2, class]
            row["img_id"] = np.array([i], np.int32)
            row["annotation"] = np.array([[b[1], b[0], b[3], b[2], b[4]] for b in boxes],
                                         np.int32)
        else:                   # FasterRCNN's [x1, y1, x2, y2, class, iscrowd]
            row["annotation"] = np.array([b + [int(rng.rand() < 0.2)] for b in boxes],
                                         np.int32)
        if masks:               # MaskRCNN's: the boxes' masks packed as bytes, and their shape
            stack = rng.rand(len(boxes), height, width) < 0.5
            row["mask"], row["mask_shape"] = stack.tobytes(), np.array(stack.shape, np.int32)
        rows.append(row)
    return rows


def draw_ssd(r):
    case = common(r)
    case.update(size=r.randint(8, 16), shard_files=r.choice([1, 1, 2, 3]),
                color=r.choice([None, draw_color(r)]), anchors=r.choice([4, 6]))
    # whole rounds of a row per file (see Context.write_mindrecord)
    case["rows"] = case["shard_files"] * max(1, case["rows"] // case["shard_files"])
    return case


def ssd_preprocess(img_id, image, box, size, train, anchors):
    """SSD's preprocess_fn: a crop, a resize, a flip, boxes made relative and matched to
    ``anchors`` slots; the draws seeded by the image id."""
    height, width, _ = image.shape
    if not train:
        return img_id, nearest(image, size, size), np.array((height, width), np.float32)
    rng = np.random.RandomState(int(img_id[0]))
    box = box.astype(np.float32)
    top, left = rng.randint(0, height // 4 + 1), rng.randint(0, width // 4 + 1)
    image = image[top:, left:]
    box[:, [0, 2]] = np.clip(box[:, [0, 2]] - top, 0, image.shape[0]) / image.shape[0]
    box[:, [1, 3]] = np.clip(box[:, [1, 3]] - left, 0, image.shape[1]) / image.shape[1]
    image = nearest(image, size, size)
    if rng.rand() < 0.5:
        image = image[:, ::-1]          # a view: maps must take arrays that are not contiguous
        box[:, [1, 3]] = 1 - box[:, [3, 1]]
    boxes = padded(box[:, :4].tolist(), anchors, 4)
    labels = padded([[c + 1] for c in box[:, 4].astype(int)], anchors, 1, np.int32)[:, 0]
    return image, boxes, labels, np.array(min(len(box), anchors), np.int32)


def build_ssd(context):
    """SSD's create_ssd_dataset."""
    case, vision = context.case, context.vision
    schema = {"img_id": {"type": "int32", "shape": [1]}, "image": {"type": "bytes"},
              "annotation": {"type": "int32", "shape": [-1, 5]}}
    path = context.write_mindrecord("ssd.mindrecord", schema, detection_rows(case, True),
                                    case["shard_files"])
    data = context.ds.MindDataset(path, columns_list=["img_id", "image", "annotation"],
                                  num_parallel_workers=case["workers"], shuffle=False,
                                  **shard_kwargs(case))
    data = data.map(operations=vision.Decode(), input_columns=["image"])
    train, size, anchors = case["train"], case["size"], case["anchors"]
    compose_map_func = (lambda img_id, image, annotation: ssd_preprocess(
        img_id, image, annotation, size, train, anchors))
    outputs = ["image", "box", "label", "num_match"] if train else ["img_id", "image",
                                                                     "image_shape"]
    data = context.pymap(data, compose_map_func, ["img_id", "image", "annotation"], outputs,
                         python_multiprocessing=case["processes"],
                         num_parallel_workers=case["workers"])
    trans = [vision.Normalize(mean=MEAN, std=STD), vision.HWC2CHW()]
    if train and case["color"]:
        trans.insert(0, color_adjust(vision, case["color"]))
    data = data.map(operations=trans, input_columns=["image"],
                    python_multiprocessing=case["processes"],
                    num_parallel_workers=case["workers"])
    return data.batch(case["batch"], drop_remainder=True)


def draw_rcnn(r):
    case = common(r)
    case.update(height=r.randint(10, 20), width=r.randint(10, 24), max_boxes=r.choice([3, 5]),
                masks=r.random() < 0.4, prefetch=r.choice([None, 8]))
    return case


def rcnn_preprocess(image, annotation, case, mask=None, mask_shape=None):
    """FasterRCNN's (MaskRCNN's, with masks) preprocess_fn: the image rescaled into
    height x width and flipped, normalized and made CHW here; boxes padded to max_boxes with
    a flag per box (crowd boxes flagged off)."""
    height, width, boxes = case["height"], case["width"], case["max_boxes"]
    rng = row_random(annotation)
    ih, iw, _ = image.shape
    image = nearest(image, height, width).astype(np.float32)
    box = annotation[:, :4].astype(np.float32) * ([width / iw, height / ih] * 2)
    if case["train"] and rng.rand() < 0.5:
        image = image[:, ::-1]
        box[:, [0, 2]] = width - 1 - box[:, [2, 0]]
    image = ((image - MEAN) / STD).astype(np.float32).transpose(2, 0, 1).copy()
    shape = np.array([height, width, height / ih, width / iw], np.float32)
    valid = padded([[c == 0] for c in annotation[:, 5]], boxes, 1, np.bool_)[:, 0]
    out = (image, shape, padded(box.tolist(), boxes, 4),
           padded([[c + 1] for c in annotation[:, 4]], boxes, 1, np.int32)[:, 0], valid)
    if mask is None:
        return out
    masks = np.frombuffer(mask.tobytes(), np.bool_).reshape(mask_shape)
    resized = np.zeros((boxes, height, width), np.bool_)
    resized[:len(masks)] = [nearest(m, height, width) for m in masks[:boxes]]
    return out + (resized,)


def build_rcnn(context):
    """FasterRCNN's create_fasterrcnn_dataset; with masks, MaskRCNN's."""
    case = context.case
    schema = {"image": {"type": "bytes"}, "annotation": {"type": "int32", "shape": [-1, 6]}}
    if case["masks"]:
        schema.update(mask={"type": "bytes"}, mask_shape={"type": "int32", "shape": [-1]})
    path = context.write_mindrecord("rcnn.mindrecord", schema,
                                    detection_rows(case, masks=case["masks"]))
    columns = list(schema)
    if case["prefetch"]:
        context.ds.config.set_prefetch_size(case["prefetch"])
    data = context.ds.MindDataset(path, columns_list=columns, num_shards=case.get(
        "shards", [1, 0])[0], shard_id=case.get("shards", [1, 0])[1], num_parallel_workers=min(4, os.cpu_count()),
        shuffle=False)
    data = data.map(input_columns=["image"], operations=context.vision.Decode())
    if case["masks"]:
        compose_map_func = (lambda image, annotation, mask, mask_shape: rcnn_preprocess(
            image, annotation, case, mask, mask_shape))
    else:
        compose_map_func = (lambda image, annotation: rcnn_preprocess(image, annotation, case))
    outputs = ["image", "image_shape", "box", "label", "valid_num"] + (
        ["mask"] if case["masks"] else [])
    data = context.pymap(data, compose_map_func, columns, outputs,
                         python_multiprocessing=case["processes"],
                         num_parallel_workers=case["workers"])
    return data.batch(case["batch"], drop_remainder=True)


# --- detection over Python sources: YOLOv3, YOLOv5, RetinaFace -------------------------------


class YoloSource:
    """A COCO-like detection source as YOLO's scripts read it: the file's bytes as int8 (or, for
    YOLOv5's mosaics, a decoded image) and the boxes as lists of numbers."""

    def __init__(self, case, v5=False):
        rng = np.random.RandomState(case["seed"])
        self.v5, self.images, self.boxes = v5, [], []
        for _ in range(case["rows"]):
            height, width = rng.randint(10, 24), rng.randint(10, 24)
            image = pixels(rng, height, width)
            self.images.append(image if v5 and rng.rand() < 0.5 else
                               np.frombuffer(encoded(image, "JPEG"), np.int8).copy())
            self.boxes.append([[float(v) for v in box[:4]] + [box[4]] for box in
                               random_boxes(rng, height, width, rng.randint(1, 4))])

    def __getitem__(self, index):
        image, target = self.images[index], self.boxes[index]
        if self.v5:
            return image, target, [16, 16], np.array([int(image.dtype == np.uint8)])
        return image, target, [], [], [], [], [], []

    def __len__(self):
        return len(self.images)


YOLO_COLUMNS = ["image", "annotation", "bbox1", "bbox2", "bbox3", "gt_box1", "gt_box2",
                "gt_box3"]


def yolo_targets(annotation, size, max_boxes):
    """bbox1-3 (grids of 1/2, 1/4, 1/8 of the image holding the boxes' centres) and gt_box1-3."""
    grids, boxes = [], padded(annotation.tolist(), max_boxes, 5)
    for stride in (2, 4, 8):
        grid = np.zeros((size // stride, size // stride, 5), np.float32)
        for x1, y1, x2, y2, label in boxes[boxes[:, 2] > 0]:
            cx = min(int((x1 + x2) / 2 / stride), grid.shape[1] - 1)
            cy = min(int((y1 + y2) / 2 / stride), grid.shape[0] - 1)
            grid[cy, cx] = [x1, y1, x2, y2, label]
        grids.append(grid)
    return grids + [boxes[:, :4].copy() for _ in range(3)]


class MultiScaleTrans:
    """YOLOv3's per_batch_map: a batch resized to a size that changes with the batch and the
    epoch (BatchInfo), each image flipped or not by its boxes' draw."""

    def __init__(self, sizes, max_boxes):
        self.sizes, self.max_boxes = sizes, max_boxes

    def __call__(self, imgs, annos, x1, x2, x3, x4, x5, x6, batch_info):
        size = self.sizes[(batch_info.get_epoch_num() + batch_info.get_batch_num())
                          % len(self.sizes)]
        columns = [[] for _ in YOLO_COLUMNS]
        for image, anno in zip(imgs, annos):
            anno = np.array(anno, np.float32).reshape(-1, 5)
            anno[:, :4] *= [size / image.shape[1], size / image.shape[0]] * 2
            image = nearest(image, size, size)
            if row_random(anno).rand() < 0.5:
                image = image[:, ::-1]
                anno[:, [0, 2]] = size - anno[:, [2, 0]]
            outputs = [image.transpose(2, 0, 1).astype(np.float32) / 255, anno] + \
                yolo_targets(anno, size, self.max_boxes)
            outputs[1] = padded(anno.tolist(), self.max_boxes, 5)
            for column, value in zip(columns, outputs):
                column.append(value)
        # some columns stacked, some lists of rows: the scripts give both
        return tuple(np.stack(column) if i % 2 else column for i, column in enumerate(columns))


def draw_yolo(r):
    case = common(r)
    case.update(sampler=epoch_sampler(r, case), sizes=r.sample([8, 16, 24], r.randint(1, 3)),
                max_boxes=r.choice([3, 4]), v5=r.random() < 0.5, shared_mem=r.random() < 0.5,
                max_rowsize=r.choice([None, 8]))
    return case


def yolo_v5_scale(image, annotation, input_size, mosaic_flag, max_boxes):
    """YOLOv5's multi-scale map: a file's bytes decoded (a mosaic comes decoded), resized."""
    if int(mosaic_flag[0]) == 0:
        from PIL import Image
        image = np.array(Image.open(io.BytesIO(image.tobytes())).convert("RGB"))
    size = int(input_size[0])
    anno = np.array(annotation, np.float32).reshape(-1, 5)
    anno[:, :4] *= [size / image.shape[1], size / image.shape[0]] * 2
    return (nearest(image, size, size).transpose(2, 0, 1).astype(np.float32) / 255,
            padded(anno.tolist(), max_boxes, 5), np.array([size, size], np.int32))


def build_yolo(context):
    """YOLOv3's create_yolo_dataset (per_batch_map of all 8 columns); with v5, YOLOv5's (a
    source in worker processes, maps of 4 columns to 3 and of 2 to 7, then project)."""
    case, ds = context.case, context.ds
    source = YoloSource(case, case["v5"])
    sampler = EpochSeededSampler(len(source), **case["sampler"])
    if not case["v5"]:
        data = ds.GeneratorDataset(source, column_names=YOLO_COLUMNS, sampler=sampler)
        data = data.map(operations=context.vision.Decode(), input_columns=["image"])
        return data.batch(case["batch"], per_batch_map=MultiScaleTrans(
            case["sizes"], case["max_boxes"]), input_columns=YOLO_COLUMNS,
            num_parallel_workers=case["workers"], drop_remainder=True,
            python_multiprocessing=case["processes"])
    ds.config.set_enable_shared_mem(case["shared_mem"])
    columns = ["image", "annotation", "input_size", "mosaic_flag"]
    data = ds.GeneratorDataset(source, column_names=columns, sampler=sampler,
                               python_multiprocessing=True, num_parallel_workers=case["workers"])
    max_boxes = case["max_boxes"]
    data = context.pymap(data, lambda image, annotation, input_size, mosaic_flag: yolo_v5_scale(
        image, annotation, input_size, mosaic_flag, max_boxes), columns,
                         ["image", "annotation", "size"], num_parallel_workers=case["workers"],
                         python_multiprocessing=True, **({"max_rowsize": case["max_rowsize"]}
                                                         if case["max_rowsize"] else {}))
    data = data.map(operations=lambda anno, size: (anno,) + tuple(
        yolo_targets(anno, int(size[0]), max_boxes)), input_columns=["annotation", "size"],
        output_columns=YOLO_COLUMNS[1:], num_parallel_workers=case["workers"],
        python_multiprocessing=False)
    data = data.project(YOLO_COLUMNS)
    return data.batch(case["batch"], num_parallel_workers=case["workers"], drop_remainder=True)


class WiderFace:
    """RetinaFace's source: an image's path (a str column) and its faces, lists of 20 numbers
    (a box, then 5 landmarks of x, y and a flag)."""

    def __init__(self, directory, case):
        rng = np.random.RandomState(case["seed"])
        self.paths, self.labels = [], []
        for i in range(case["rows"]):
            height, width = rng.randint(12, 28), rng.randint(12, 28)
            self.paths.append(os.path.join(directory, "face%d.png" % i))
            with open(self.paths[-1], "wb") as f:
                f.write(encoded(pixels(rng, height, width), "PNG"))
            self.labels.append([[float(v) for v in box[:2]] + [float(box[2] - box[0]), float(
                box[3] - box[1])] + rng.randint(-1, min(height, width), 16).astype(
                float).tolist() for box in random_boxes(rng, height, width, rng.randint(1, 4))])

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, item):
        return self.paths[item], self.labels[item]


def read_face(img_path, annotation):
    from PIL import Image
    path = img_path if isinstance(img_path, str) else img_path.item()
    image = np.array(Image.open(path).convert("RGB"))[:, :, ::-1]      # BGR, as cv2.imread
    anns = np.zeros((len(annotation), 15))
    for i, label in enumerate(annotation):
        anns[i, :2], anns[i, 2:4] = label[:2], label[:2] + label[2:4]
        anns[i, 4:14] = label[[4, 5, 7, 8, 10, 11, 13, 14, 16, 17]]
        anns[i, 14] = -1 if anns[i, 4] < 0 else 1
    return image, anns.astype(np.float32)


def draw_retinaface(r):
    case = common(r)
    case.update(size=r.choice([8, 12, 16]), priors=r.choice([4, 6]))
    return case


def build_retinaface(context):
    """RetinaFace's create_dataset: three maps of Python functions, the last of 2 columns to 4."""
    case = context.case
    data = context.ds.GeneratorDataset(WiderFace(context.directory, case),
                                       ["image", "annotation"], shuffle=False,
                                       num_parallel_workers=case["workers"],
                                       **shard_kwargs(case))
    size, priors = case["size"], case["priors"]

    def augmentation(image, annot):
        rng = row_random(annot)
        top, left = rng.randint(0, image.shape[0] // 3), rng.randint(0, image.shape[1] // 3)
        annot = annot.copy()
        annot[:, 0:14:2] = (annot[:, 0:14:2] - left) / (image.shape[1] - left)
        annot[:, 1:14:2] = (annot[:, 1:14:2] - top) / (image.shape[0] - top)
        image = nearest(image[top:, left:], size, size).astype(np.float32) - (104, 117, 123)
        return image.transpose(2, 0, 1).astype(np.float32), annot

    def encode_data(image, annot):
        return (image, padded(annot[:, :4].tolist(), priors, 4),
                padded([[1]] * len(annot), priors, 1, np.int32)[:, 0],
                padded(annot[:, 4:14].tolist(), priors, 10))

    kwargs = {"python_multiprocessing": case["processes"], "num_parallel_workers":
              case["workers"]}
    data = context.pymap(data, read_face, ["image", "annotation"], ["image", "annotation"],
                         **kwargs)
    data = data.map(input_columns=["image", "annotation"], output_columns=[
        "image", "annotation"], operations=augmentation, **kwargs)
    data = data.map(input_columns=["image", "annotation"], output_columns=[
        "image", "truths", "conf", "landm"], operations=encode_data, **kwargs)
    data = data.batch(case["batch"], drop_remainder=True)
    return data.repeat(case["repeat"]) if case["repeat"] else data


class KeypointSource:
    """OpenPose's source before its labels: an image and its people's keypoints (x, y, seen)."""

    def __init__(self, case):
        rng = np.random.RandomState(case["seed"])
        self.rows = [(pixels(rng, case["size"], case["size"]), rng.randint(
            0, case["size"], (rng.randint(1, 3), case["joints"], 3)).astype(np.int32) % [
            case["size"], case["size"], 2]) for _ in range(case["rows"])]

    def __getitem__(self, index):
        return self.rows[index]

    def __len__(self):
        return len(self.rows)


def draw_openpose(r):
    case = common(r)
    case.update(size=r.choice([8, 16]), joints=r.randint(2, 4), sampler=epoch_sampler(r, case))
    return case


def openpose_labels(img, poses, sigma=2.0):
    """OpenPose's generate_labels: the image made CHW in [-0.5, 0.5], a heatmap per joint and a
    background one, a part affinity field per pair of joints, an ignore mask."""
    size = img.shape[0]
    grid_y, grid_x = np.mgrid[0:size, 0:size]
    heatmaps = np.zeros((poses.shape[1] + 1, size, size), np.float32)
    for joint in range(poses.shape[1]):
        for x, y, seen in poses[:, joint]:
            if seen:
                heat = np.exp(-0.5 * ((grid_x - x) ** 2 + (grid_y - y) ** 2) / sigma ** 2)
                heatmaps[joint] = np.maximum(heatmaps[joint], heat)
    heatmaps[-1] = 1 - heatmaps[:-1].max(axis=0)
    pafs = np.zeros((2 * (poses.shape[1] - 1), size, size), np.float32)
    for limb in range(poses.shape[1] - 1):
        for pose in poses:
            vector = (pose[limb + 1, :2] - pose[limb, :2]).astype(np.float64)
            norm = np.linalg.norm(vector)
            if norm and pose[limb, 2] and pose[limb + 1, 2]:
                pafs[2 * limb:2 * limb + 2] += (vector / norm)[:, None, None]
    return (img.astype(np.float32).transpose(2, 0, 1) / 255 - 0.5, pafs, heatmaps,
            np.ones((size, size), np.float32))


def build_openpose(context):
    """OpenPose's create_dataset: a GeneratorDataset with the script's sampler (seeded through
    numpy's global seed), a Python map of 2 columns to 4, a batch."""
    case = context.case
    source = KeypointSource(case)
    sampler = EpochSeededSampler(len(source), global_seed=True, **case["sampler"])
    data = context.ds.GeneratorDataset(source, ["img", "keypoints"],
                                       num_parallel_workers=case["workers"], sampler=sampler)
    data = context.pymap(data, openpose_labels, ["img", "keypoints"],
                         ["img", "pafs", "heatmaps", "ignore_mask"],
                         num_parallel_workers=case["workers"],
                         python_multiprocessing=case["processes"])
    return data.batch(case["batch"], drop_remainder=True)
