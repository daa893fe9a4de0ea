"""EfficientNet-EdgeTPU S and M (Gupta and Tan, 2019), the two of Coral's Edge TPU benchmarks
that the calibration set adds (docs/calibration.md), written from TensorFlow's reference
(tensorflow/tpu, models/official/efficientnet/edgetpu/efficientnet_edgetpu_builder.py and
efficientnet_model.py, 2019), weights=None:

  - ReLU everywhere, no squeeze-and-excitation, 1,001 classes;
  - a 32-channel stem (3x3, stride 2), then six stages of blocks given as
    (repeats, kernel, stride, expansion, input, output, fused, skip); a repeat after the first
    takes the stage's output as its input and stride 1;
  - a fused block (the reference's conv_type 1) is a kxk convolution at stride 1 that expands,
    then a 1x1 projection that carries the stride (so a strided fused block computes its
    expansion at the input's resolution, as the reference's graph does); the others are the
    usual expand 1x1, depthwise kxk, project 1x1;
  - the first block's expansion is 4 x 24 channels wide although the stem gives it 32 (the
    reference sizes it from the stage's nominal input);
  - widths rounded to multiples of 8 and repeats scaled by ceil(depth x repeats), as the
    reference's round_filters and round_repeats; S is width 1.0, depth 1.0 at 224x224, M width
    1.0, depth 1.1 at 240x240 (L, width 1.2, depth 1.4 at 300x300, is not a calibration point).
"""

import math

import torch.nn as nn

# (repeats, kernel, stride, expansion, input, output, fused, skip) per stage.
STAGES = [(1, 3, 1, 4, 24, 24, True, False), (2, 3, 2, 8, 24, 32, True, True),
          (4, 3, 2, 8, 32, 48, True, True), (5, 5, 2, 8, 48, 96, False, True),
          (4, 5, 1, 8, 96, 144, False, True), (2, 5, 2, 8, 144, 192, False, True)]


def round_filters(filters, width):
    scaled = filters * width
    rounded = max(8, int(scaled + 4) // 8 * 8)
    return rounded + 8 if rounded < 0.9 * scaled else rounded


def conv_bn(cin, cout, kernel, stride, groups=1, relu=True):
    layers = [nn.Conv2d(cin, cout, kernel, stride, kernel // 2, groups=groups, bias=False),
              nn.BatchNorm2d(cout, eps=1e-3)]
    return nn.Sequential(*layers, nn.ReLU(inplace=True)) if relu else nn.Sequential(*layers)


class Block(nn.Module):
    def __init__(self, channels_in, nominal_in, cout, kernel, stride, expansion, fused, skip):
        super().__init__()
        mid = nominal_in * expansion
        if fused:
            self.body = nn.Sequential(conv_bn(channels_in, mid, kernel, 1),
                                      conv_bn(mid, cout, 1, stride, relu=False))
        else:
            self.body = nn.Sequential(conv_bn(channels_in, mid, 1, 1),
                                      conv_bn(mid, mid, kernel, stride, groups=mid),
                                      conv_bn(mid, cout, 1, 1, relu=False))
        self.skip = skip and stride == 1 and channels_in == cout

    def forward(self, x):
        y = self.body(x)
        return y + x if self.skip else y


class EfficientNetEdgeTPU(nn.Module):
    def __init__(self, width, depth, classes=1001):
        super().__init__()
        channels = round_filters(32, width)
        layers = [conv_bn(3, channels, 3, 2)]
        for repeats, kernel, stride, expansion, cin, cout, fused, skip in STAGES:
            cin, cout = round_filters(cin, width), round_filters(cout, width)
            for i in range(int(math.ceil(depth * repeats))):
                layers.append(Block(channels, cin if i == 0 else cout, cout, kernel,
                                    stride if i == 0 else 1, expansion, fused, skip))
                channels = cout
        head = round_filters(1280, width)
        self.features = nn.Sequential(*layers, conv_bn(channels, head, 1, 1))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Linear(head, classes)

    def forward(self, x):
        return self.classifier(self.pool(self.features(x)).flatten(1))


def efficientnet_edgetpu_s(weights=None):
    assert weights is None
    return EfficientNetEdgeTPU(1.0, 1.0)


def efficientnet_edgetpu_m(weights=None):
    assert weights is None
    return EfficientNetEdgeTPU(1.0, 1.1)
