// Flat, 64-byte aligned numeric buffers: every tensor of the GNN (parameters, gradients,
// activations) lives in one of these, so GEMMs see aligned rows and the results do not depend on
// where the allocator happened to put a buffer.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace memplace::nn {

template <class T, std::size_t Alignment = 64>
struct AlignedAllocator {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = AlignedAllocator<U, Alignment>;
  };
  AlignedAllocator() = default;
  template <class U>
  AlignedAllocator(const AlignedAllocator<U, Alignment>&) {}
  T* allocate(std::size_t n) {
    return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{Alignment}));
  }
  void deallocate(T* p, std::size_t) { ::operator delete (p, std::align_val_t{Alignment}); }
  template <class U>
  bool operator==(const AlignedAllocator<U, Alignment>&) const {
    return true;
  }
};

template <class T>
using Buffer = std::vector<T, AlignedAllocator<T>>;

// Grows `buffer` to at least `size` elements (never shrinks: workspaces are reused across calls
// without reallocating) and zeroes the first `size` when asked.
template <class T>
void ensure_size(Buffer<T>& buffer, std::size_t size) {
  if (buffer.size() < size) buffer.resize(size);
}

}  // namespace memplace::nn
