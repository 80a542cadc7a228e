package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class AtomicFilesTest {

  @Test
  void write_throughASymbolicLink_replacesItsTargetAndKeepsTheLink(@TempDir Path dir)
      throws Exception {
    Path real = dir.resolve("rows.csv");
    Files.writeString(real, "old\n");
    Path link = Files.createSymbolicLink(dir.resolve("latest.csv"), Path.of("rows.csv"));
    AtomicFiles.writeString(link, "new\n");
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(Files.readString(real)).isEqualTo("new\n");
  }

  @Test
  void write_linkToAFullDevice_fails(@TempDir Path dir) throws Exception {
    Path full = Path.of("/dev/full");
    if (!Files.exists(full)) {
      return; // a system without /dev/full: nothing to write into
    }
    Path link = Files.createSymbolicLink(dir.resolve("out.csv"), full);
    assertThatThrownBy(() -> AtomicFiles.writeString(link, "rows\n"))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageStartingWith("cannot write " + link + ": ");
    assertThat(Files.isSymbolicLink(link)).isTrue();
  }

  @Test
  void write_writeProtectedFile_isRefusedAndKept(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("profile.json");
    Files.writeString(f, "{}\n");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("r--r--r--"));
    assertThatThrownBy(() -> AtomicFiles.writeString(f, "new\n"))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage(
            "cannot write " + f + ": the file is write-protected (make it writable to replace it)");
    assertThat(Files.readString(f)).isEqualTo("{}\n");
  }

  @Test
  void write_toADevice_writesInPlace() {
    // /dev/null takes the content and stays a device
    AtomicFiles.writeString(Path.of("/dev/null"), "rows\n");
    assertThat(Files.isRegularFile(Path.of("/dev/null"))).isFalse();
  }

  @Test
  void checkWritable_followsTheWritersRules(@TempDir Path dir) throws Exception {
    // a write-protected file is refused before the job, as write refuses it after
    Path f = dir.resolve("profile.json");
    Files.writeString(f, "{}\n");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("r--r--r--"));
    assertThatThrownBy(() -> AtomicFiles.checkWritable(f, "--out"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "--out " + f + ": the file is write-protected (make it writable to replace it)");
    // a link to a folder is a folder; a device is written in place
    Path link = Files.createSymbolicLink(dir.resolve("latest"), dir);
    assertThatThrownBy(() -> AtomicFiles.checkWritable(link, "--out"))
        .hasMessage("--out " + link + ": is a folder, not a file");
    AtomicFiles.checkWritable(Path.of("/dev/null"), "--out");
  }
}
