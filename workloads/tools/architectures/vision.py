"""torchvision's definitions of the vision models beyond the original four (torchvision 0.14,
weights=None), with their published parameter counts (torchvision's model documentation)."""

import torch
import torchvision

# name: (constructor, input size, published parameter count)
VISION = {
    "resnet18": (torchvision.models.resnet18, 224, 11_689_512),
    "mobilenet-v3-large": (torchvision.models.mobilenet_v3_large, 224, 5_483_032),
    "efficientnet-b0": (torchvision.models.efficientnet_b0, 224, 5_288_548),
    "convnext-tiny": (torchvision.models.convnext_tiny, 224, 28_589_128),
    "swin-t": (torchvision.models.swin_t, 224, 28_288_354),
    "vit-b16": (torchvision.models.vit_b_16, 224, 86_567_656),
    "vit-l16": (torchvision.models.vit_l_16, 224, 304_326_632),
}


def build(name):
    return VISION[name][0](weights=None)


def example_inputs(name):
    """An image at the model's size; the batch stays symbolic."""
    size = VISION[name][1]
    axes = {"image": {0: "batch"}, "output": {0: "batch"}}
    return (torch.zeros(1, 3, size, size),), ["image"], ["output"], axes
