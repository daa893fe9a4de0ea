#!/usr/bin/env bash
# Regenerates workloads/calibration/workloads/ (docs/calibration.md): each calibration point's
# workload imported from its fixture (workloads/onnx/<workload>.onnx, made by
# workloads/tools/export_onnx.py) at batch 1, int8, the standard fusion preset (the IPU set's at
# the batches and precision it names). mobilenet-v2 is the shipped workload and is not imported
# here. Run from the repository root after `make build`.
set -euo pipefail
memplace=${1:-build/default/apps/memplace}
out=workloads/calibration/workloads
mkdir -p "$out"
for workload in googlenet densenet121 squeezenet1-1 vgg16 vgg19 resnet50-299 mobilenet-v1 \
    resnet50-v2 resnet152-v2 inception-resnet-v2 inception-v4 efficientnet-edgetpu-s \
    efficientnet-edgetpu-m; do
  "$memplace" import "workloads/onnx/$workload.onnx" --dim batch=1 -o "$out/$workload.yaml"
done
# The IPU set's batch sweep (ipu-gc200.yaml): ResNet-50 at 224x224, fp16, batch 1 to 90.
for batch in 1 2 4 8 16 32 64 90; do
  "$memplace" import workloads/onnx/resnet50-224.onnx --dim batch=$batch --element-type fp16 \
    --name resnet50-224-b$batch-fp16 -o "$out/resnet50-224-b$batch-fp16.yaml"
done
