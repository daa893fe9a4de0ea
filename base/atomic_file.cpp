#include "base/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "base/errors.hpp"

namespace memplace {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw std::runtime_error(path.string() + ": " + what + ": " + std::strerror(errno));
}

// Closes the descriptor and removes the temporary unless the write was committed.
class TemporaryFile {
 public:
  explicit TemporaryFile(std::filesystem::path path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) fail(path_, "cannot create");
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(path_.c_str());
  }
  void write_all(std::string_view content) {
    const char* data = content.data();
    std::size_t left = content.size();
    while (left > 0) {
      const ssize_t n = ::write(fd_, data, left);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail(path_, "write failed");
      data += n;
      left -= static_cast<std::size_t>(n);
    }
    if (::fsync(fd_) != 0) fail(path_, "fsync failed");
    if (::close(fd_) != 0) {
      fd_ = -1;
      fail(path_, "close failed");
    }
    fd_ = -1;
  }
  void commit_to(const std::filesystem::path& target) {
    if (::rename(path_.c_str(), target.c_str()) != 0) fail(target, "rename failed");
    committed_ = true;
  }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  bool committed_ = false;
};

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  std::filesystem::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid());
  TemporaryFile file(tmp);
  file.write_all(content);
  file.commit_to(path);
  // Make the rename itself durable.
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

void check_writable(const std::filesystem::path& path, bool create_folders) {
  auto refuse = [&](const std::string& reason) {
    throw InputError("cannot write " + path.string() + ": " + reason);
  };
  if (path.empty()) refuse("empty path");
  if (std::filesystem::is_directory(path)) refuse("it is a folder");
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  std::error_code error;
  if (create_folders) {
    std::filesystem::create_directories(dir, error);
    if (error) refuse("cannot create its folder " + dir.string() + " (" + error.message() + ")");
  } else if (!std::filesystem::is_directory(dir, error)) {
    refuse("no folder " + dir.string());
  }
  std::filesystem::path probe = path;
  probe += ".tmp." + std::to_string(::getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) refuse(std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace memplace
