package io.ridgeline.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Every file the command line writes (charts, sweep rows, calibrate's profiles, reports and bands)
 * is whole or absent: it is written to a temporary file in the target's folder and moved into place
 * ({@link StandardCopyOption#ATOMIC_MOVE}) only once complete. A failure (or Ctrl-C, through {@link
 * java.io.File#deleteOnExit}) deletes the temporary file and leaves an existing target as it was;
 * concurrent writers of one target each move a whole file, and the last move wins.
 */
final class AtomicFiles {
  /** Why a write-protected target is refused (a file without its owner's write bit). */
  private static final String WRITE_PROTECTED =
      "the file is write-protected (make it writable to replace it)";

  private AtomicFiles() {}

  /** Writes the content of a file to the temporary path it is given. */
  @FunctionalInterface
  interface Body<T> {
    T write(Path temporary) throws IOException;
  }

  /** Writes a file through a stream. */
  @FunctionalInterface
  interface StreamBody<T> {
    T write(OutputStream out) throws IOException;
  }

  /** Writes a file through a UTF-8 writer. */
  @FunctionalInterface
  interface WriterBody<T> {
    T write(Writer out) throws IOException;
  }

  /**
   * Runs {@code body} on a fresh temporary file beside {@code target} (missing parent folders are
   * created), then moves it onto {@code target}; returns what {@code body} returned.
   *
   * @throws UncheckedIOException naming {@code target} when a folder, the file or the move fails;
   *     the temporary file is deleted and {@code target} is left as it was
   */
  static <T> T write(Path target, Body<T> body) {
    Path temporary = null;
    try {
      Path absolute = linkTarget(target.toAbsolutePath());
      if (Files.exists(absolute) && !Files.isRegularFile(absolute)) {
        return writeInPlace(absolute, body);
      }
      if (writeProtected(absolute)) {
        throw new AccessDeniedException(absolute.toString(), null, "write-protected");
      }
      Path dir = absolute.getParent();
      if (dir != null) {
        Files.createDirectories(dir);
      }
      temporary = createTemporary(dir, absolute.getFileName().toString());
      temporary.toFile().deleteOnExit();
      T result = body.write(temporary);
      move(temporary, absolute);
      return result;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + target + ": " + why(e), e);
    } finally {
      if (temporary != null) {
        try {
          Files.deleteIfExists(temporary);
        } catch (IOException ignored) {
          // the temporary file is marked deleteOnExit as well
        }
      }
    }
  }

  /**
   * The file a chain of symbolic links at {@code path} ends on (at most 40 links, as the kernel
   * follows): the target is written, the link is kept; {@code path} itself when it is no link.
   */
  private static Path linkTarget(Path path) throws IOException {
    Path p = path;
    for (int i = 0; i < 40 && Files.isSymbolicLink(p); i++) {
      // a relative link is relative to its own folder; an absolute one replaces the path
      p = p.resolveSibling(Files.readSymbolicLink(p)).normalize();
    }
    return p;
  }

  /**
   * Whether the regular file {@code path} exists without its owner's write permission (POSIX
   * permission bits, so a write-protected file is kept even for a user, such as root, whom the file
   * system would let replace it); {@link Files#isWritable} where there are no POSIX bits.
   */
  private static boolean writeProtected(Path path) throws IOException {
    if (!Files.isRegularFile(path)) {
      return false;
    }
    try {
      return !Files.getPosixFilePermissions(path).contains(PosixFilePermission.OWNER_WRITE);
    } catch (UnsupportedOperationException e) {
      return !Files.isWritable(path);
    }
  }

  /**
   * Writes to a device or a pipe ({@code /dev/stdout}, {@code /dev/null}, a FIFO) in place: the
   * content is made in a temporary file of the system's temporary folder, then copied into {@code
   * device}, whose write errors ({@code /dev/full}) fail the command. Such a target cannot be
   * replaced whole, so it is not renamed over.
   */
  private static <T> T writeInPlace(Path device, Body<T> body) throws IOException {
    Path temporary = Files.createTempFile("ridgeline-", ".tmp");
    try {
      temporary.toFile().deleteOnExit();
      T result = body.write(temporary);
      try (OutputStream out = Files.newOutputStream(device, StandardOpenOption.WRITE)) {
        Files.copy(temporary, out);
      }
      return result;
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  /** {@link #write(Path, Body)} through an output stream. */
  static <T> T writeStream(Path target, StreamBody<T> body) {
    return write(
        target,
        tmp -> {
          try (OutputStream out = Files.newOutputStream(tmp)) {
            return body.write(out);
          }
        });
  }

  /** {@link #write(Path, Body)} through a buffered UTF-8 writer. */
  static <T> T writeText(Path target, WriterBody<T> body) {
    return write(
        target,
        tmp -> {
          try (BufferedWriter out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            return body.write(out);
          }
        });
  }

  /**
   * Checks, before a long job, that {@code target} could be written as {@link #write} writes it:
   * through a symbolic link to the file it names; a device or pipe is written in place; otherwise
   * the file must not be write-protected, not be a folder, and its nearest existing folder must be
   * a folder this process may create files in (missing folders below it are created when the file
   * is written).
   *
   * @throws IllegalArgumentException {@code "OPTION PATH: is a folder, not a file"}, {@code "OPTION
   *     PATH: the file is write-protected ..."}, {@code "OPTION PATH: DIR is a file, not a folder"}
   *     or {@code "OPTION PATH: cannot create a file in DIR"}
   */
  static void checkWritable(Path target, String option) {
    Path absolute;
    try {
      absolute = linkTarget(target.toAbsolutePath());
      if (writeProtected(absolute)) {
        throw new IllegalArgumentException(option + " " + target + ": " + WRITE_PROTECTED);
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(option + " " + target + ": " + why(e), e);
    }
    if (Files.isDirectory(absolute)) {
      throw new IllegalArgumentException(option + " " + target + ": is a folder, not a file");
    }
    if (Files.exists(absolute) && !Files.isRegularFile(absolute)) {
      return; // a device or a pipe, written in place
    }
    Path dir = absolute.getParent();
    while (dir != null && !Files.exists(dir)) {
      dir = dir.getParent();
    }
    if (dir != null && !Files.isDirectory(dir)) {
      throw new IllegalArgumentException(
          option + " " + target + ": " + dir + " is a file, not a folder");
    }
    if (dir != null && !Files.isWritable(dir)) {
      throw new IllegalArgumentException(
          option + " " + target + ": cannot create a file in " + dir);
    }
  }

  /** Writes {@code text} (UTF-8) to {@code target}, whole or not at all. */
  static void writeString(Path target, String text) {
    writeText(
        target,
        out -> {
          out.write(text);
          return null;
        });
  }

  /**
   * A new empty file {@code .NAME.RANDOM.tmp} in {@code dir}, created with the default permissions
   * (the umask's, as the target would get; {@link Files#createTempFile} would make it private).
   */
  private static Path createTemporary(Path dir, String name) throws IOException {
    for (int attempt = 0; ; attempt++) {
      String random = Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
      try {
        return Files.createFile(dir.resolve("." + name + "." + random + ".tmp"));
      } catch (FileAlreadyExistsException e) {
        if (attempt > 100) {
          throw e;
        }
      }
    }
  }

  private static void move(Path temporary, Path target) throws IOException {
    try {
      Files.move(
          temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      // a file system without atomic renames: still never a partial target from this writer
      Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static String why(IOException e) {
    if (e instanceof NoSuchFileException missing) {
      String file = missing.getFile();
      Path parent = file == null ? null : Path.of(file).getParent();
      return parent != null && Files.isDirectory(parent)
          ? "cannot create a file in " + parent
          : "no such directory";
    }
    if (e instanceof AccessDeniedException denied) {
      return "write-protected".equals(denied.getReason()) ? WRITE_PROTECTED : "permission denied";
    }
    if (e instanceof FileAlreadyExistsException) {
      return "a file is in the way of a folder";
    }
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m.replace('\n', ' ');
  }
}
