"""RandAugment: num_ops ops drawn uniformly from the standard RandAugment space, each at the
given magnitude bin (signed ops get a random sign). The bins and the ops are
transforms_c.vision.augment_space's (MindSpore 2.10's, measured), shared with AutoAugment and
TrivialAugmentWide."""
from transforms_c._base import TensorOperation
from transforms_c._validate import (MAX_SIZE, check_enum, check_fill_value, check_int,
                                    check_range)
from transforms_c.enums import Inter
from transforms_c.vision import color
from transforms_c.vision.augment_space import (RAND_AUGMENT, SIGNED_OPS, STANDARD_OPS,
                                               apply_augment, check_augment_interpolation,
                                               magnitude)


class RandAugment(TensorOperation):
    """RandAugment(num_ops=2, magnitude=9, num_magnitude_bins=31,
    interpolation=Inter.NEAREST, fill_value=0) on RGB uint8 images."""

    is_random = True

    def __init__(self, num_ops=2, magnitude=9, num_magnitude_bins=31,
                 interpolation=Inter.NEAREST, fill_value=0):
        # MindSpore's bounds and words: magnitude in [0, num_magnitude_bins)
        self.num_ops = check_int(num_ops, "num_ops", 0, MAX_SIZE)
        self.num_magnitude_bins = check_int(num_magnitude_bins, "num_magnitude_bins", 2,
                                            MAX_SIZE)
        self.magnitude = check_int(magnitude, "magnitude")
        check_range(self.magnitude, "magnitude", 0, self.num_magnitude_bins, high_open=True)
        self.interpolation = check_enum(interpolation, Inter, "interpolation")
        self.fill_value = check_fill_value(fill_value)

    def _level(self, name, width, height):
        """Op `name`'s magnitude at this op's bin, unsigned."""
        return magnitude(RAND_AUGMENT, name, self.magnitude, self.num_magnitude_bins, width,
                         height)

    def _apply_op(self, img, name, level):
        return apply_augment(img, name, level, self.interpolation, self.fill_value,
                             "RandAugment")

    def _compute(self, img, rng):
        check_augment_interpolation(self.interpolation, "RandAugment")
        img = color._rgb_image(img, "RandAugment")
        height, width = img.shape[:2]
        for _ in range(self.num_ops):
            name = STANDARD_OPS[rng.randint(0, len(STANDARD_OPS) - 1)]
            level = self._level(name, width, height)
            if name in SIGNED_OPS and rng.random() < 0.5:
                level = -level
            img = self._apply_op(img, name, level)
        return img
