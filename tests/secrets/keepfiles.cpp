// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// Preloaded (LD_PRELOAD) into every test by converge_add_test, so that the secret scan sees what
// the tests wrote even though their QTemporaryDirs remove it: before a regular file under
// $CONVERGE_TESTFILES is unlinked, a hard link to it is made in $CONVERGE_KEEP_DIR. Hard links
// cost no copy, and the file's content at deletion time is what is kept (SQLite's WAL and
// journals included). Not used in sanitizer builds, whose runtime must come first.

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// The absolute path of `path` relative to `dirfd`, without resolving the last component.
bool absolutePath(int dirfd, const char *path, char *out, size_t size)
{
    if (path[0] == '/')
        return std::snprintf(out, size, "%s", path) < int(size);
    char link[64];
    if (dirfd == AT_FDCWD)
        std::snprintf(link, sizeof link, "/proc/self/cwd");
    else
        std::snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
    char dir[PATH_MAX];
    const ssize_t n = readlink(link, dir, sizeof dir - 1);
    if (n <= 0)
        return false;
    dir[n] = '\0';
    return std::snprintf(out, size, "%s/%s", dir, path) < int(size);
}

void keep(int dirfd, const char *path)
{
    const char *root = std::getenv("CONVERGE_TESTFILES");
    const char *keepDir = std::getenv("CONVERGE_KEEP_DIR");
    if (!root || !keepDir || !path)
        return;
    char absolute[PATH_MAX];
    if (!absolutePath(dirfd, path, absolute, sizeof absolute) ||
        std::strncmp(absolute, root, std::strlen(root)) != 0 ||
        std::strncmp(absolute, keepDir, std::strlen(keepDir)) == 0)
        return;
    struct stat st;
    // Huge files are test input (the 100 MB manifest of the bad-input corpus), not output.
    if (lstat(absolute, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0 ||
        st.st_size > (32 << 20))
        return;
    static std::atomic<unsigned> counter{0};
    const char *base = std::strrchr(absolute, '/');
    char target[PATH_MAX];
    if (std::snprintf(target, sizeof target, "%s/%d-%u-%s", keepDir, int(getpid()),
                      counter.fetch_add(1), base ? base + 1 : absolute) >= int(sizeof target))
        return;
    mkdir(keepDir, 0700);
    link(absolute, target); // best effort: a failure only means less to scan
}

template<typename F>
F next(const char *name)
{
    return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

} // namespace

extern "C" int unlink(const char *path)
{
    static const auto real = next<int (*)(const char *)>("unlink");
    keep(AT_FDCWD, path);
    return real(path);
}

extern "C" int unlinkat(int dirfd, const char *path, int flags)
{
    static const auto real = next<int (*)(int, const char *, int)>("unlinkat");
    if (!(flags & AT_REMOVEDIR))
        keep(dirfd, path);
    return real(dirfd, path, flags);
}

extern "C" int remove(const char *path)
{
    static const auto real = next<int (*)(const char *)>("remove");
    keep(AT_FDCWD, path);
    return real(path);
}
