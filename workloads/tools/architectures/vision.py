"""torchvision's definitions of the vision models beyond the original four (torchvision 0.14,
weights=None), with their published parameter counts (torchvision's model documentation), and the
Edge TPU calibration set's CNNs (docs/calibration.md) at the resolution Coral's benchmarks used:
torchvision's where it has the architecture, else keras_cnns.py's (Keras' trainable counts)."""

import functools

import torch
import torchvision

from . import efficientnet_edgetpu, keras_cnns

# name: (constructor, input size, published parameter count[, the unit the count is published
# to: timm's table gives millions to two decimals, so a count within half of it matches])
VISION = {
    "resnet18": (torchvision.models.resnet18, 224, 11_689_512),
    "mobilenet-v3-large": (torchvision.models.mobilenet_v3_large, 224, 5_483_032),
    "efficientnet-b0": (torchvision.models.efficientnet_b0, 224, 5_288_548),
    "convnext-tiny": (torchvision.models.convnext_tiny, 224, 28_589_128),
    "swin-t": (torchvision.models.swin_t, 224, 28_288_354),
    "vit-b16": (torchvision.models.vit_b_16, 224, 86_567_656),
    "vit-l16": (torchvision.models.vit_l_16, 224, 304_326_632),
    # The Edge TPU calibration set (workloads/calibration/edge-tpu.yaml).
    "googlenet": (functools.partial(torchvision.models.googlenet, aux_logits=False,
                                    init_weights=False), 224, 6_624_904),
    "densenet121": (torchvision.models.densenet121, 224, 7_978_856),
    "squeezenet1-1": (torchvision.models.squeezenet1_1, 224, 1_235_496),
    "vgg16": (torchvision.models.vgg16, 224, 138_357_544),
    "vgg19": (torchvision.models.vgg19, 224, 143_667_240),
    "resnet50-299": (torchvision.models.resnet50, 299, 25_557_032),
    # ResNet-50 at 224x224 with a symbolic batch (the shipped resnet50 fixture fixes batch 1), for
    # the IPU's batch sweep (workloads/calibration/ipu-gc200.yaml).
    "resnet50-224": (torchvision.models.resnet50, 224, 25_557_032),
    "mobilenet-v1": (keras_cnns.mobilenet_v1, 224, 4_231_976),
    "resnet50-v2": (keras_cnns.resnet50_v2, 299, 25_568_360),
    "resnet152-v2": (keras_cnns.resnet152_v2, 299, 60_236_904),
    "inception-resnet-v2": (keras_cnns.inception_resnet_v2, 299, 55_813_192),
    # TF-slim's definition; the count of Keras-Hub's inception_v4_imagenet preset and of
    # imgclsmob's (osmr) PyTorch port.
    "inception-v4": (keras_cnns.inception_v4, 299, 42_679_816),
    # TensorFlow's reference (efficientnet_edgetpu.py); the counts of timm's ports of Google's
    # checkpoints (tf_efficientnet_es, tf_efficientnet_em: 5.44 M and 6.90 M parameters).
    "efficientnet-edgetpu-s": (efficientnet_edgetpu.efficientnet_edgetpu_s, 224, 5_440_000, 10_000),
    "efficientnet-edgetpu-m": (efficientnet_edgetpu.efficientnet_edgetpu_m, 240, 6_900_000, 10_000),
}


def build(name):
    return VISION[name][0](weights=None)


def example_inputs(name):
    """An image at the model's size; the batch stays symbolic."""
    size = VISION[name][1]
    axes = {"image": {0: "batch"}, "output": {0: "batch"}}
    return (torch.zeros(1, 3, size, size),), ["image"], ["output"], axes
