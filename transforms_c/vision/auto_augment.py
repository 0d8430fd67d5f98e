"""AutoAugment (the learned ImageNet, CIFAR-10 and SVHN policies) and TrivialAugmentWide (one
op of the standard space at a random bin of a wider range), on RGB uint8 images. Their ops and
bins are transforms_c.vision.augment_space's, shared with RandAugment."""
from transforms_c._base import TensorOperation, require_hwc3
from transforms_c._validate import MAX_SIZE, check_enum, check_fill_value, check_int
from transforms_c.enums import AutoAugmentPolicy, Inter
from transforms_c.vision import color
from transforms_c.vision.augment_space import (AUTO_AUGMENT, SIGNED_OPS, STANDARD_OPS,
                                               TRIVIAL_AUGMENT_WIDE, UNLEVELLED_OPS,
                                               apply_augment, check_augment_interpolation,
                                               magnitude)

#: AutoAugment's bins: magnitudes 0..9 of the policies.
AUTO_AUGMENT_BINS = 10

# The published AutoAugment policies (Cubuk et al., 2019, as MindSpore's documentation lists
# them): each sub-policy is two (op, probability, magnitude bin) triples, None for the ops
# without a magnitude.
_IMAGENET = (
    (("Posterize", 0.4, 8), ("Rotate", 0.6, 9)),
    (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
    (("Equalize", 0.8, None), ("Equalize", 0.6, None)),
    (("Posterize", 0.6, 7), ("Posterize", 0.6, 6)),
    (("Equalize", 0.4, None), ("Solarize", 0.2, 4)),
    (("Equalize", 0.4, None), ("Rotate", 0.8, 8)),
    (("Solarize", 0.6, 3), ("Equalize", 0.6, None)),
    (("Posterize", 0.8, 5), ("Equalize", 1.0, None)),
    (("Rotate", 0.2, 3), ("Solarize", 0.6, 8)),
    (("Equalize", 0.6, None), ("Posterize", 0.4, 6)),
    (("Rotate", 0.8, 8), ("Color", 0.4, 0)),
    (("Rotate", 0.4, 9), ("Equalize", 0.6, None)),
    (("Equalize", 0.0, None), ("Equalize", 0.8, None)),
    (("Invert", 0.6, None), ("Equalize", 1.0, None)),
    (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
    (("Rotate", 0.8, 8), ("Color", 1.0, 2)),
    (("Color", 0.8, 8), ("Solarize", 0.8, 7)),
    (("Sharpness", 0.4, 7), ("Invert", 0.6, None)),
    (("ShearX", 0.6, 5), ("Equalize", 1.0, None)),
    (("Color", 0.4, 0), ("Equalize", 0.6, None)),
    (("Equalize", 0.4, None), ("Solarize", 0.2, 4)),
    (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
    (("Invert", 0.6, None), ("Equalize", 1.0, None)),
    (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
    (("Equalize", 0.8, None), ("Equalize", 0.6, None)),
)
_CIFAR10 = (
    (("Invert", 0.1, None), ("Contrast", 0.2, 6)),
    (("Rotate", 0.7, 2), ("TranslateX", 0.3, 9)),
    (("Sharpness", 0.8, 1), ("Sharpness", 0.9, 3)),
    (("ShearY", 0.5, 8), ("TranslateY", 0.7, 9)),
    (("AutoContrast", 0.5, None), ("Equalize", 0.9, None)),
    (("ShearY", 0.2, 7), ("Posterize", 0.3, 7)),
    (("Color", 0.4, 3), ("Brightness", 0.6, 7)),
    (("Sharpness", 0.3, 9), ("Brightness", 0.7, 9)),
    (("Equalize", 0.6, None), ("Equalize", 0.5, None)),
    (("Contrast", 0.6, 7), ("Sharpness", 0.6, 5)),
    (("Color", 0.7, 7), ("TranslateX", 0.5, 8)),
    (("Equalize", 0.3, None), ("AutoContrast", 0.4, None)),
    (("TranslateY", 0.4, 3), ("Sharpness", 0.2, 6)),
    (("Brightness", 0.9, 6), ("Color", 0.2, 8)),
    (("Solarize", 0.5, 2), ("Invert", 0.0, None)),
    (("Equalize", 0.2, None), ("AutoContrast", 0.6, None)),
    (("Equalize", 0.2, None), ("Equalize", 0.6, None)),
    (("Color", 0.9, 9), ("Equalize", 0.6, None)),
    (("AutoContrast", 0.8, None), ("Solarize", 0.2, 8)),
    (("Brightness", 0.1, 3), ("Color", 0.7, 0)),
    (("Solarize", 0.4, 5), ("AutoContrast", 0.9, None)),
    (("TranslateY", 0.9, 9), ("TranslateY", 0.7, 9)),
    (("AutoContrast", 0.9, None), ("Solarize", 0.8, 3)),
    (("Equalize", 0.8, None), ("Invert", 0.1, None)),
    (("TranslateY", 0.7, 9), ("AutoContrast", 0.9, None)),
)
_SVHN = (
    (("ShearX", 0.9, 4), ("Invert", 0.2, None)),
    (("ShearY", 0.9, 8), ("Invert", 0.7, None)),
    (("Equalize", 0.6, None), ("Solarize", 0.6, 6)),
    (("Invert", 0.9, None), ("Equalize", 0.6, None)),
    (("Equalize", 0.6, None), ("Rotate", 0.9, 3)),
    (("ShearX", 0.9, 4), ("AutoContrast", 0.8, None)),
    (("ShearY", 0.9, 8), ("Invert", 0.4, None)),
    (("ShearY", 0.9, 5), ("Solarize", 0.2, 6)),
    (("Invert", 0.9, None), ("AutoContrast", 0.8, None)),
    (("Equalize", 0.6, None), ("Rotate", 0.9, 3)),
    (("ShearX", 0.9, 4), ("Solarize", 0.3, 3)),
    (("ShearY", 0.8, 8), ("Invert", 0.7, None)),
    (("Equalize", 0.9, None), ("TranslateY", 0.6, 6)),
    (("Invert", 0.9, None), ("Equalize", 0.6, None)),
    (("Contrast", 0.3, 3), ("Rotate", 0.8, 4)),
    (("Invert", 0.8, None), ("TranslateY", 0.0, 2)),
    (("ShearY", 0.7, 6), ("Solarize", 0.4, 8)),
    (("Invert", 0.6, None), ("Rotate", 0.8, 4)),
    (("ShearY", 0.3, 7), ("TranslateX", 0.9, 3)),
    (("ShearX", 0.1, 6), ("Invert", 0.6, None)),
    (("Solarize", 0.7, 2), ("TranslateY", 0.6, 7)),
    (("ShearY", 0.8, 4), ("Invert", 0.8, None)),
    (("ShearX", 0.7, 9), ("TranslateY", 0.8, 3)),
    (("ShearY", 0.8, 5), ("AutoContrast", 0.7, None)),
    (("ShearX", 0.7, 2), ("Invert", 0.1, None)),
)
POLICIES = {AutoAugmentPolicy.IMAGENET: _IMAGENET, AutoAugmentPolicy.CIFAR10: _CIFAR10,
            AutoAugmentPolicy.SVHN: _SVHN}


def _auto_augment_image(img):
    """An RGB uint8 image, else AutoAugment's words for the rank and channels (MindSpore 2.10
    checks no type: a float image fails in some ops only, so it is refused here)."""
    return color._rgb_image(require_hwc3(img, "AutoAugment"), "AutoAugment")


class AutoAugment(TensorOperation):
    """AutoAugment(policy=AutoAugmentPolicy.IMAGENET, interpolation=Inter.NEAREST,
    fill_value=0): one sub-policy of the policy drawn uniformly; each of its two ops applied
    with its probability at its magnitude bin (of 10), signed ops with a random sign."""

    is_random = True

    def __init__(self, policy=AutoAugmentPolicy.IMAGENET, interpolation=Inter.NEAREST,
                 fill_value=0):
        self.policy = check_enum(policy, AutoAugmentPolicy, "policy")
        self.interpolation = check_enum(interpolation, Inter, "interpolation")
        self.fill_value = check_fill_value(fill_value)

    def _compute(self, img, rng):
        check_augment_interpolation(self.interpolation, "AutoAugment")
        img = _auto_augment_image(img)
        height, width = img.shape[:2]
        sub_policies = POLICIES[self.policy]
        for name, prob, level_bin in sub_policies[rng.randint(0, len(sub_policies) - 1)]:
            if rng.random() >= prob:
                continue
            level = magnitude(AUTO_AUGMENT, name, level_bin or 0, AUTO_AUGMENT_BINS, width,
                              height)
            if name in SIGNED_OPS and rng.random() < 0.5:
                level = -level
            img = apply_augment(img, name, level, self.interpolation, self.fill_value,
                                "AutoAugment")
        return img


class TrivialAugmentWide(TensorOperation):
    """TrivialAugmentWide(num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
    one op of the standard space drawn uniformly, at a bin drawn uniformly from
    num_magnitude_bins (wider ranges than RandAugment's), signed ops with a random sign."""

    is_random = True

    def __init__(self, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        self.num_magnitude_bins = check_int(num_magnitude_bins, "num_magnitude_bins", 2,
                                            MAX_SIZE)
        self.interpolation = check_enum(interpolation, Inter, "interpolation")
        self.fill_value = check_fill_value(fill_value)

    def _compute(self, img, rng):
        check_augment_interpolation(self.interpolation, "TrivialAugmentWide")
        img = color._rgb_image(img, "TrivialAugmentWide")
        height, width = img.shape[:2]
        name = STANDARD_OPS[rng.randint(0, len(STANDARD_OPS) - 1)]
        level = 0.0
        if name not in UNLEVELLED_OPS:
            level_bin = rng.randint(0, self.num_magnitude_bins - 1)
            level = magnitude(TRIVIAL_AUGMENT_WIDE, name, level_bin, self.num_magnitude_bins,
                              width, height)
            if name in SIGNED_OPS and rng.random() < 0.5:
                level = -level
        return apply_augment(img, name, level, self.interpolation, self.fill_value,
                             "TrivialAugmentWide")
