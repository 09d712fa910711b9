// Reading a lesson or scenario file by name (cli.hpp): the CLI's only file system access.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "cli.hpp"
#include "prefill_trace/engine.hpp"

namespace prefill_trace::cli {
namespace {

// What kind of file `mode` describes, for refusing anything but a regular file by name.
const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::size_t limit_of(FileKind kind) {
  return kind == FileKind::request_trace ? api::max_request_trace_bytes()
                                         : api::max_document_bytes();
}

void refuse_unless_regular(const std::string& path, const struct stat& info, FileKind kind) {
  if (!S_ISREG(info.st_mode))
    fail(file_name(path) + ": is " + std::string(file_kind(info.st_mode)) + ", not a regular file");
  const std::size_t limit = limit_of(kind);
  if (info.st_size <= static_cast<off_t>(limit)) return;
  if (kind == FileKind::request_trace) {
    fail(file_name(path) + ": a request trace of " + std::to_string(info.st_size) +
         " bytes exceeds the limit of " + std::to_string(limit) + " bytes (refused unread)");
  }
  fail(file_name(path) + ": byte 0: document of " + std::to_string(info.st_size) +
       " bytes exceeds the limit of " + std::to_string(limit));
}

}  // namespace

// Only a regular file is read, and one over its kind's size limit (a document's, or a request
// trace's) is refused by its size before any of it is read: a directory, a device
// or a FIFO is refused by its kind from stat(), so a FIFO without a writer is never opened (opening
// it would block). The file is then opened non-blocking and checked again through its descriptor,
// in case the path was swapped between the two looks.
std::string read_file(const std::string& path, FileKind kind) {
  const std::size_t limit = limit_of(kind);
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    fail(file_name(path) + ": cannot open the file (" + std::strerror(errno) + ")");
  refuse_unless_regular(path, info, kind);
  // Closed on every path out, the failures (which throw) included.
  struct Descriptor {
    int fd;
    ~Descriptor() {
      if (fd >= 0) ::close(fd);
    }
  } const file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) fail(file_name(path) + ": cannot open the file (" + std::strerror(errno) + ")");
  if (::fstat(file.fd, &info) != 0)
    fail(file_name(path) + ": cannot read the file (" + std::strerror(errno) + ")");
  refuse_unless_regular(path, info, kind);
  // One byte over the limit is read, so a file that grew since fstat is still refused; the
  // buffer starts at the file's size (a trace's limit is 64 MiB) and grows if the file did.
  std::string text(std::min(limit, static_cast<std::size_t>(info.st_size)) + 1, '\0');
  std::size_t filled = 0;
  while (filled < text.size()) {
    const ssize_t got = ::read(file.fd, text.data() + filled, text.size() - filled);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      fail(file_name(path) + ": cannot read the file (" + std::strerror(errno) + ")");
    }
    filled += static_cast<std::size_t>(got);
    if (filled == text.size() && text.size() <= limit)
      text.resize(std::min(limit + 1, text.size() * 2));
  }
  text.resize(filled);
  return text;
}

}  // namespace prefill_trace::cli
