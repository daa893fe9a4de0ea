"""The architectures workloads/tools/export_onnx.py exports, beyond its original seven."""
