"""CNNs of the Edge TPU calibration set (docs/calibration.md) that torchvision 0.14 lacks, written
from Keras Applications' definitions (the models Coral's benchmarks compiled), weights=None:

  mobilenet-v1   MobileNet (Howard et al. 2017), alpha 1.0, 224x224: keras.applications.MobileNet
  resnet50-v2    ResNet-50 V2 (He et al. 2016, pre-activation), keras.applications.ResNet50V2
  resnet152-v2   ResNet-152 V2, keras.applications.ResNet152V2

Keras counts batch normalisation's moving mean and variance as (non-trainable) parameters;
PyTorch keeps them as buffers, so the published figure checked here is Keras' trainable count.
"""

import torch.nn as nn


def conv_bn(cin, cout, kernel, stride, groups=1):
    return nn.Sequential(nn.Conv2d(cin, cout, kernel, stride, kernel // 2, groups=groups, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU6(inplace=True))


class MobileNetV1(nn.Module):
    # (output channels, stride) of each depthwise-separable block after the 32-channel stem.
    BLOCKS = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2)] + [(512, 1)] * 5 + \
             [(1024, 2), (1024, 1)]

    def __init__(self, classes=1000):
        super().__init__()
        layers = [conv_bn(3, 32, 3, 2)]
        cin = 32
        for cout, stride in self.BLOCKS:
            layers += [conv_bn(cin, cin, 3, stride, groups=cin), conv_bn(cin, cout, 1, 1)]
            cin = cout
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        # Keras' head is a 1x1 convolution with bias over the pooled features.
        self.classifier = nn.Conv2d(cin, classes, 1)

    def forward(self, x):
        return self.classifier(self.pool(self.features(x))).flatten(1)


class PreActBottleneck(nn.Module):
    """Keras' ResNet V2 block: BN-ReLU before the convolutions; the shortcut is a 1x1 convolution
    (from the pre-activated input) when the shape changes, else the input (max-pooled when the
    block strides). Keras puts a block's stride on its last block of a stack, in the 3x3 conv."""

    def __init__(self, cin, filters, stride, conv_shortcut):
        super().__init__()
        self.pre = nn.Sequential(nn.BatchNorm2d(cin, eps=1.001e-5), nn.ReLU(inplace=True))
        self.shortcut = (nn.Conv2d(cin, 4 * filters, 1, stride) if conv_shortcut
                         else nn.MaxPool2d(1, stride) if stride > 1 else nn.Identity())
        self.conv_shortcut = conv_shortcut
        self.body = nn.Sequential(
            nn.Conv2d(cin, filters, 1, 1, bias=False), nn.BatchNorm2d(filters, eps=1.001e-5),
            nn.ReLU(inplace=True),
            nn.ZeroPad2d(1), nn.Conv2d(filters, filters, 3, stride, bias=False),
            nn.BatchNorm2d(filters, eps=1.001e-5), nn.ReLU(inplace=True),
            nn.Conv2d(filters, 4 * filters, 1, 1))

    def forward(self, x):
        pre = self.pre(x)
        shortcut = self.shortcut(pre if self.conv_shortcut else x)
        return shortcut + self.body(pre)


class ResNetV2(nn.Module):
    def __init__(self, blocks, classes=1000):
        super().__init__()
        self.stem = nn.Sequential(nn.ZeroPad2d(3), nn.Conv2d(3, 64, 7, 2),
                                  nn.ZeroPad2d(1), nn.MaxPool2d(3, 2))
        layers, cin = [], 64
        for filters, count, stride in zip((64, 128, 256, 512), blocks, (2, 2, 2, 1)):
            for i in range(count):
                layers.append(PreActBottleneck(cin, filters, stride if i == count - 1 else 1,
                                               conv_shortcut=i == 0))
                cin = 4 * filters
        self.blocks = nn.Sequential(*layers)
        self.post = nn.Sequential(nn.BatchNorm2d(cin, eps=1.001e-5), nn.ReLU(inplace=True),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):
        return self.fc(self.post(self.blocks(self.stem(x))))


def mobilenet_v1(weights=None):
    assert weights is None
    return MobileNetV1()


def resnet50_v2(weights=None):
    assert weights is None
    return ResNetV2((3, 4, 6, 3))


def resnet152_v2(weights=None):
    assert weights is None
    return ResNetV2((3, 8, 36, 3))
