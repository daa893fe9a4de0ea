"""CNNs of the Edge TPU calibration set (docs/calibration.md) that torchvision 0.14 lacks, written
from Keras Applications' definitions (the models Coral's benchmarks compiled) or, for Inception v4,
TF-slim's, weights=None:

  mobilenet-v1   MobileNet (Howard et al. 2017), alpha 1.0, 224x224: keras.applications.MobileNet
  resnet50-v2    ResNet-50 V2 (He et al. 2016, pre-activation), keras.applications.ResNet50V2
  resnet152-v2   ResNet-152 V2, keras.applications.ResNet152V2
  inception-resnet-v2  Inception-ResNet v2 (Szegedy et al. 2016), 299x299:
                 keras.applications.InceptionResNetV2 (batch normalisation without scale)
  inception-v4   Inception v4 (Szegedy et al. 2016), 299x299, as TF-slim's inception_v4 (which
                 Keras Applications lacks; Keras-Hub's preset and imgclsmob's port count the same
                 42,679,816 parameters)

Keras counts batch normalisation's moving mean and variance as (non-trainable) parameters;
PyTorch keeps them as buffers, so the published figure checked here is Keras' trainable count.
"""

import torch
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


class BatchNormNoScale(nn.Module):
    """Keras' BatchNormalization(scale=False): normalised, then a learned shift only (no gamma)."""

    def __init__(self, channels, eps=1e-3):
        super().__init__()
        self.norm = nn.BatchNorm2d(channels, eps=eps, affine=False)
        self.beta = nn.Parameter(torch.zeros(1, channels, 1, 1))

    def forward(self, x):
        return self.norm(x) + self.beta


class ConvBN(nn.Module):
    """Keras' conv2d_bn of Inception-ResNet v2: a convolution (padding 'same' or 'valid'), then
    either batch normalisation without scale (no bias) or a bias (use_bias), then ReLU unless
    told not to."""

    def __init__(self, cin, cout, kernel, stride=1, padding="same", use_bias=False, relu=True):
        super().__init__()
        kh, kw = (kernel, kernel) if isinstance(kernel, int) else kernel
        pad = (kh // 2, kw // 2) if padding == "same" else (0, 0)
        self.conv = nn.Conv2d(cin, cout, (kh, kw), stride, pad, bias=use_bias)
        self.norm = nn.Identity() if use_bias else BatchNormNoScale(cout)
        self.relu = nn.ReLU(inplace=True) if relu else nn.Identity()

    def forward(self, x):
        return self.relu(self.norm(self.conv(x)))


class Concat(nn.Module):
    def __init__(self, *branches):
        super().__init__()
        self.branches = nn.ModuleList(branches)

    def forward(self, x):
        return torch.cat([b(x) for b in self.branches], dim=1)


class ResidualBlock(nn.Module):
    """x + scale * up(concat(branches(x))), then ReLU (not after the last block8)."""

    def __init__(self, channels, branches, mixed, scale, relu=True):
        super().__init__()
        self.mixed = Concat(*branches)
        self.up = ConvBN(mixed, channels, 1, use_bias=True, relu=False)
        self.scale = scale
        self.relu = nn.ReLU(inplace=True) if relu else nn.Identity()

    def forward(self, x):
        return self.relu(x + self.scale * self.up(self.mixed(x)))


def seq(*layers):
    return nn.Sequential(*layers)


def block35(scale=0.17):
    return ResidualBlock(320, [ConvBN(320, 32, 1),
                               seq(ConvBN(320, 32, 1), ConvBN(32, 32, 3)),
                               seq(ConvBN(320, 32, 1), ConvBN(32, 48, 3), ConvBN(48, 64, 3))],
                         128, scale)


def block17(scale=0.1):
    return ResidualBlock(1088, [ConvBN(1088, 192, 1),
                                seq(ConvBN(1088, 128, 1), ConvBN(128, 160, (1, 7)),
                                    ConvBN(160, 192, (7, 1)))],
                         384, scale)


def block8(scale=0.2, relu=True):
    return ResidualBlock(2080, [ConvBN(2080, 192, 1),
                                seq(ConvBN(2080, 192, 1), ConvBN(192, 224, (1, 3)),
                                    ConvBN(224, 256, (3, 1)))],
                         448, scale, relu)


class InceptionResNetV2(nn.Module):
    """keras.applications.InceptionResNetV2 (Szegedy et al. 2016), 299x299."""

    def __init__(self, classes=1000):
        super().__init__()
        valid = "valid"
        self.stem = seq(ConvBN(3, 32, 3, 2, valid), ConvBN(32, 32, 3, padding=valid),
                        ConvBN(32, 64, 3), nn.MaxPool2d(3, 2),
                        ConvBN(64, 80, 1, padding=valid), ConvBN(80, 192, 3, padding=valid),
                        nn.MaxPool2d(3, 2))
        self.mixed_5b = Concat(ConvBN(192, 96, 1),
                               seq(ConvBN(192, 48, 1), ConvBN(48, 64, 5)),
                               seq(ConvBN(192, 64, 1), ConvBN(64, 96, 3), ConvBN(96, 96, 3)),
                               seq(nn.AvgPool2d(3, 1, 1, count_include_pad=False),
                                   ConvBN(192, 64, 1)))
        self.block35 = seq(*[block35() for _ in range(10)])
        self.mixed_6a = Concat(ConvBN(320, 384, 3, 2, valid),
                               seq(ConvBN(320, 256, 1), ConvBN(256, 256, 3),
                                   ConvBN(256, 384, 3, 2, valid)),
                               nn.MaxPool2d(3, 2))
        self.block17 = seq(*[block17() for _ in range(20)])
        self.mixed_7a = Concat(seq(ConvBN(1088, 256, 1), ConvBN(256, 384, 3, 2, valid)),
                               seq(ConvBN(1088, 256, 1), ConvBN(256, 288, 3, 2, valid)),
                               seq(ConvBN(1088, 256, 1), ConvBN(256, 288, 3),
                                   ConvBN(288, 320, 3, 2, valid)),
                               nn.MaxPool2d(3, 2))
        self.block8 = seq(*[block8() for _ in range(9)], block8(1.0, relu=False))
        self.conv_7b = ConvBN(2080, 1536, 1)
        self.head = seq(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(1536, classes))

    def forward(self, x):
        x = self.mixed_7a(self.block17(self.mixed_6a(self.block35(self.mixed_5b(self.stem(x))))))
        return self.head(self.conv_7b(self.block8(x)))


def inception_resnet_v2(weights=None):
    assert weights is None
    return InceptionResNetV2()


class BasicConv(nn.Module):
    """TF-slim's convolution of Inception v4: no bias, batch normalisation (eps 0.001), ReLU."""

    def __init__(self, cin, cout, kernel, stride=1, padding=0):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, kernel, stride, padding, bias=False)
        self.norm = nn.BatchNorm2d(cout, eps=1e-3)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.relu(self.norm(self.conv(x)))


def pool_branch(cin, cout):
    return seq(nn.AvgPool2d(3, 1, 1, count_include_pad=False), BasicConv(cin, cout, 1))


def inception_a():
    return Concat(BasicConv(384, 96, 1),
                  seq(BasicConv(384, 64, 1), BasicConv(64, 96, 3, padding=1)),
                  seq(BasicConv(384, 64, 1), BasicConv(64, 96, 3, padding=1),
                      BasicConv(96, 96, 3, padding=1)),
                  pool_branch(384, 96))


def inception_b():
    return Concat(BasicConv(1024, 384, 1),
                  seq(BasicConv(1024, 192, 1), BasicConv(192, 224, (1, 7), padding=(0, 3)),
                      BasicConv(224, 256, (7, 1), padding=(3, 0))),
                  seq(BasicConv(1024, 192, 1), BasicConv(192, 192, (7, 1), padding=(3, 0)),
                      BasicConv(192, 224, (1, 7), padding=(0, 3)),
                      BasicConv(224, 224, (7, 1), padding=(3, 0)),
                      BasicConv(224, 256, (1, 7), padding=(0, 3))),
                  pool_branch(1024, 128))


class InceptionC(nn.Module):
    def __init__(self):
        super().__init__()
        self.b0 = BasicConv(1536, 256, 1)
        self.b1 = BasicConv(1536, 384, 1)
        self.b1_a = BasicConv(384, 256, (1, 3), padding=(0, 1))
        self.b1_b = BasicConv(384, 256, (3, 1), padding=(1, 0))
        self.b2 = seq(BasicConv(1536, 384, 1), BasicConv(384, 448, (3, 1), padding=(1, 0)),
                      BasicConv(448, 512, (1, 3), padding=(0, 1)))
        self.b2_a = BasicConv(512, 256, (1, 3), padding=(0, 1))
        self.b2_b = BasicConv(512, 256, (3, 1), padding=(1, 0))
        self.b3 = pool_branch(1536, 256)

    def forward(self, x):
        b1, b2 = self.b1(x), self.b2(x)
        return torch.cat([self.b0(x), self.b1_a(b1), self.b1_b(b1), self.b2_a(b2), self.b2_b(b2),
                          self.b3(x)], dim=1)


class InceptionV4(nn.Module):
    """Inception v4 (Szegedy et al. 2016) as TF-slim's inception_v4 defines it, 299x299."""

    def __init__(self, classes=1000):
        super().__init__()
        self.stem = seq(BasicConv(3, 32, 3, 2), BasicConv(32, 32, 3), BasicConv(32, 64, 3, padding=1),
                        Concat(nn.MaxPool2d(3, 2), BasicConv(64, 96, 3, 2)),
                        Concat(seq(BasicConv(160, 64, 1), BasicConv(64, 96, 3)),
                               seq(BasicConv(160, 64, 1), BasicConv(64, 64, (1, 7), padding=(0, 3)),
                                   BasicConv(64, 64, (7, 1), padding=(3, 0)),
                                   BasicConv(64, 96, 3))),
                        Concat(BasicConv(192, 192, 3, 2), nn.MaxPool2d(3, 2)))
        self.a = seq(*[inception_a() for _ in range(4)])
        self.reduction_a = Concat(BasicConv(384, 384, 3, 2),
                                  seq(BasicConv(384, 192, 1), BasicConv(192, 224, 3, padding=1),
                                      BasicConv(224, 256, 3, 2)),
                                  nn.MaxPool2d(3, 2))
        self.b = seq(*[inception_b() for _ in range(7)])
        self.reduction_b = Concat(seq(BasicConv(1024, 192, 1), BasicConv(192, 192, 3, 2)),
                                  seq(BasicConv(1024, 256, 1),
                                      BasicConv(256, 256, (1, 7), padding=(0, 3)),
                                      BasicConv(256, 320, (7, 1), padding=(3, 0)),
                                      BasicConv(320, 320, 3, 2)),
                                  nn.MaxPool2d(3, 2))
        self.c = seq(*[InceptionC() for _ in range(3)])
        self.head = seq(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(1536, classes))

    def forward(self, x):
        x = self.reduction_b(self.b(self.reduction_a(self.a(self.stem(x)))))
        return self.head(self.c(x))


def inception_v4(weights=None):
    assert weights is None
    return InceptionV4()
