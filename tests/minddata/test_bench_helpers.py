"""Helpers for the minddata-bench and profile tests (tiny inputs); no tests here."""
import os

import cv2
import numpy as np


def make_small_image_folder(root, classes=2, per_class=6, size=(48, 40)):
    rng = np.random.default_rng(0)
    for c in range(classes):
        os.makedirs(os.path.join(root, f"c{c}"), exist_ok=True)
        for i in range(per_class):
            img = rng.integers(0, 255, size=(size[1], size[0], 3), dtype=np.uint8)
            ok, buf = cv2.imencode(".jpg", img)
            assert ok
            with open(os.path.join(root, f"c{c}", f"{i}.jpg"), "wb") as f:
                f.write(buf.tobytes())
    return str(root)
