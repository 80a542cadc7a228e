package io.ridgeline.serving.sweep;

import com.google.errorprone.annotations.CanIgnoreReturnValue;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable buffer of UTF-8 text as bytes, appended without allocation once grown: the sweep
 * writer's block buffer ({@link SweepWriter}), written to an output stream as it is, with no
 * conversion to {@code char}s and back (a {@code StringBuilder} of Latin-1 text is inflated to
 * {@code char}s for a {@code Writer}, which encodes them again). A reused scratch, not a value; one
 * per thread.
 */
final class Utf8Text {
  private byte[] bytes;
  private int length;

  /** An empty buffer with room for {@code capacity} bytes. */
  Utf8Text(int capacity) {
    bytes = new byte[Math.max(16, capacity)];
  }

  /** The bytes written. */
  int length() {
    return length;
  }

  /** Keeps the first {@code n} bytes ({@code n} at most {@link #length()}). */
  void setLength(int n) {
    if (n < 0 || n > length) {
      throw new IndexOutOfBoundsException("length " + n + " outside [0, " + length + "]");
    }
    length = n;
  }

  /** Byte {@code i} ({@code i} below {@link #length()}). */
  byte byteAt(int i) {
    return bytes[i];
  }

  /** Makes room for {@code more} bytes, so that as many {@link #put} calls need no check. */
  void reserve(int more) {
    if (length + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, length + more));
    }
  }

  /**
   * The buffer itself, for a writer that stores characters from index {@link #length()} in room
   * made by {@link #reserve} and then sets the end ({@link #end}).
   */
  byte[] array() {
    return bytes;
  }

  /** Ends the text at index {@code n}, after characters stored into {@link #array()}. */
  void end(int n) {
    if (n < 0 || n > bytes.length) {
      throw new IndexOutOfBoundsException("end " + n + " outside [0, " + bytes.length + "]");
    }
    length = n;
  }

  /** Appends the ASCII character {@code c} (below 0x80) in room made by {@link #reserve}. */
  void put(int c) {
    bytes[length++] = (byte) c;
  }

  /** Appends the ASCII character {@code c} (below 0x80). */
  @CanIgnoreReturnValue
  Utf8Text ascii(char c) {
    reserve(1);
    bytes[length++] = (byte) c;
    return this;
  }

  /** Appends bytes already encoded as UTF-8 ({@link #encode}). */
  @CanIgnoreReturnValue
  Utf8Text append(byte[] utf8) {
    reserve(utf8.length);
    System.arraycopy(utf8, 0, bytes, length, utf8.length);
    length += utf8.length;
    return this;
  }

  /** Appends {@code s} encoded as UTF-8 (a lone surrogate as '?', as {@link String#getBytes}). */
  @CanIgnoreReturnValue
  Utf8Text append(CharSequence s) {
    int n = s.length();
    reserve(3 * n);
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        bytes[length++] = (byte) c;
      } else if (c < 0x800) {
        bytes[length++] = (byte) (0xC0 | c >> 6);
        bytes[length++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        int cp = i + 1 < n ? Character.codePointAt(s, i) : c;
        if (Character.isSupplementaryCodePoint(cp)) {
          reserve(1);
          bytes[length++] = (byte) (0xF0 | cp >> 18);
          bytes[length++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          bytes[length++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          bytes[length++] = (byte) (0x80 | (cp & 0x3F));
          i++;
        } else {
          bytes[length++] = '?';
        }
      } else {
        bytes[length++] = (byte) (0xE0 | c >> 12);
        bytes[length++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        bytes[length++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return this;
  }

  /** Appends {@code v} in decimal, as {@link Integer#toString(int)} writes it. */
  @CanIgnoreReturnValue
  Utf8Text append(int v) {
    if (v == Integer.MIN_VALUE) {
      return append("-2147483648");
    }
    reserve(11);
    if (v < 0) {
      bytes[length++] = '-';
      v = -v;
    }
    int digits = 1;
    for (int p = 10; digits < 10 && v >= p; p *= 10) {
      digits++;
    }
    int end = length + digits;
    for (int i = end - 1; i >= length; i--) {
      bytes[i] = (byte) ('0' + v % 10);
      v /= 10;
    }
    length = end;
    return this;
  }

  /** Writes the bytes to {@code out}. */
  void writeTo(OutputStream out) throws IOException {
    out.write(bytes, 0, length);
  }

  /** The text, decoded. */
  @Override
  public String toString() {
    return new String(bytes, 0, length, StandardCharsets.UTF_8);
  }

  /** {@code s} encoded as UTF-8, for {@link #append(byte[])}. */
  static byte[] encode(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
