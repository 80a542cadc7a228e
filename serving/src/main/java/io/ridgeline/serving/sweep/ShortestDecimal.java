package io.ridgeline.serving.sweep;

import static java.lang.Math.multiplyHigh;

import com.google.errorprone.annotations.CanIgnoreReturnValue;
import java.math.BigInteger;

/**
 * Appends a {@code double} as the shortest decimal that reads back as the same double, in the text
 * of {@link Double#toString(double)} as Java 19 and later specify it, without allocating: the sweep
 * writer's number format ({@link SweepWriter}).
 *
 * <p>The algorithm is Schubfach (Raffaello Giulietti, "The Schubfach way to render doubles", 2020,
 * revised 2022), the one that Java 19's {@code Double.toString} adopted (JDK-4511638): of the
 * decimals in the double's rounding interval it picks one with the fewest digits (at least 2), the
 * closest to the double, an even last digit on a tie. Java 17's {@code Double.toString}
 * (FloatingDecimal) gives the same text for most doubles but sometimes a longer one: {@code 1.0E23}
 * is {@code 9.999999999999999E22} there, {@code 2.82879384806159E17} is {@code
 * 2.82879384806159008E17}; and it is slow (a third of the reference sweep's samples were in it).
 * Checked against Java 25's {@code Double.toString} on 20 million doubles (random bit patterns,
 * decimal ranges, ratios, integers, every power of two and its neighbours): the same text for each.
 *
 * <p>Format: {@code 0.001 <= |v| < 10^7} plain ({@code 1024.0}, {@code 0.015}), otherwise
 * computerised scientific notation ({@code 1.0E-4}, {@code 1.2345E7}); at least one digit after the
 * point; {@code NaN}, {@code Infinity}, {@code -Infinity}, {@code 0.0}, {@code -0.0}.
 */
final class ShortestDecimal {
  private ShortestDecimal() {}

  // binary64: 53-bit significand (P), 11-bit exponent (W), smallest exponent of a subnormal's ulp
  private static final int P = 53;
  private static final int W = 11;
  private static final int Q_MIN = -1074;
  private static final long C_MIN = 1L << (P - 1);
  private static final int BQ_MASK = (1 << W) - 1;
  private static final long T_MASK = (1L << (P - 1)) - 1;
  // subnormal significands below this get one more digit of room (the paper's C_TINY)
  private static final long C_TINY = 3;
  // range of the decimal exponent k of the powers of ten in the table
  private static final int K_MIN = -324;
  private static final int K_MAX = 292;
  // digits of a double's decimal significand at most (the paper's H)
  private static final int H = 17;
  private static final long MASK_63 = (1L << 63) - 1;
  private static final int MASK_28 = (1 << 28) - 1;

  private static final long[] POW10 = powersOfTen();

  /**
   * For each k in [K_MIN, K_MAX]: 10^-k = β 2^r with 2^125 <= β < 2^126, g = floor(β) + 1 split
   * into its high 63 bits (even index) and low 63 bits (odd index), computed once exactly.
   */
  private static final long[] G = table();

  /** The most characters a double's text takes ({@code -2.2250738585072014E-308}). */
  static final int MAX_CHARS = 24;

  // append(StringBuilder, double)'s text, one per thread
  private static final ThreadLocal<Utf8Text> SCRATCH =
      ThreadLocal.withInitial(() -> new Utf8Text(MAX_CHARS));

  /** Appends the shortest decimal of {@code v} to {@code b} (see the class comment). */
  @CanIgnoreReturnValue
  static StringBuilder append(StringBuilder b, double v) {
    Utf8Text t = SCRATCH.get();
    t.setLength(0);
    append(t, v);
    for (int i = 0; i < t.length(); i++) {
      b.append((char) t.byteAt(i));
    }
    return b;
  }

  /**
   * Appends the shortest decimal of {@code v} to {@code b}, ASCII bytes (see the class comment).
   */
  @CanIgnoreReturnValue
  static Utf8Text append(Utf8Text b, double v) {
    b.reserve(MAX_CHARS);
    long bits = Double.doubleToRawLongBits(v);
    long t = bits & T_MASK;
    int bq = (int) (bits >>> (P - 1)) & BQ_MASK;
    if (bq == BQ_MASK) {
      return b.append(t != 0 ? "NaN" : bits > 0 ? "Infinity" : "-Infinity");
    }
    if (bits < 0) {
      b.put('-');
    }
    if (bq != 0) {
      // normal: v = c 2^q with q = -mq
      int mq = -Q_MIN + 1 - bq;
      long c = C_MIN | t;
      // an integer below 2^53: its digits directly (the paper's fast path)
      if (0 < mq && mq < P) {
        long f = c >> mq;
        if (f << mq == c) {
          return chars(b, f, 0);
        }
      }
      return decimal(b, -mq, c, 0);
    }
    if (t != 0) {
      // subnormal
      return t < C_TINY ? decimal(b, Q_MIN, 10 * t, -1) : decimal(b, Q_MIN, t, 0);
    }
    b.put('0');
    b.put('.');
    b.put('0');
    return b;
  }

  /** The decimal of c 2^q ({@code dk}: a tiny subnormal scaled by 10, one less in exponent). */
  private static Utf8Text decimal(Utf8Text b, int q, long c, int dk) {
    int out = (int) c & 0x1;
    long cb = c << 2;
    long cbr = cb + 2;
    long cbl;
    int k;
    if (c != C_MIN || q == Q_MIN) {
      cbl = cb - 2;
      k = flog10pow2(q);
    } else {
      // at a power of two the interval below is half as wide
      cbl = cb - 1;
      k = flog10threeQuartersPow2(q);
    }
    int h = q + flog2pow10(-k) + 2;
    long g1 = G[(k - K_MIN) << 1];
    long g0 = G[(k - K_MIN) << 1 | 1];
    // v, and the rounding interval's ends, times 10^-k, in fixed point with 2 fractional bits
    long vb = rop(g1, g0, cb << h);
    long vbl = rop(g1, g0, cbl << h);
    long vbr = rop(g1, g0, cbr << h);
    long s = vb >> 2;
    if (s >= 100) {
      // one digit fewer: s' = floor(s / 10) = floor(s × 115_292_150_460_684_698 × 16 / 2^64)
      long sp10 = 10 * multiplyHigh(s, 115_292_150_460_684_698L << 4);
      long tp10 = sp10 + 10;
      boolean upin = vbl + out <= sp10 << 2;
      boolean wpin = (tp10 << 2) + out <= vbr;
      if (upin != wpin) {
        return chars(b, upin ? sp10 : tp10, k);
      }
    }
    long t = s + 1;
    boolean uin = vbl + out <= s << 2;
    boolean win = (t << 2) + out <= vbr;
    if (uin != win) {
      return chars(b, uin ? s : t, k + dk);
    }
    // both in the interval: the closer to v, the even one on a tie
    long cmp = vb - ((s + t) << 1);
    return chars(b, cmp < 0 || (cmp == 0 && (s & 0x1) == 0) ? s : t, k + dk);
  }

  /** Rounding to odd of g × cp / 2^127 (the paper's r_o'). */
  private static long rop(long g1, long g0, long cp) {
    long x1 = multiplyHigh(g0, cp);
    long y0 = g1 * cp;
    long y1 = multiplyHigh(g1, cp);
    long z = (y0 >>> 1) + x1;
    long vbp = y1 + (z >>> 63);
    return vbp | ((z & MASK_63) + MASK_63) >>> 63;
  }

  /** Writes f 10^e, f's trailing zeros removed (keeping one digit after the point). */
  private static Utf8Text chars(Utf8Text b, long f, int e) {
    b.end(chars(b.array(), b.length(), f, e));
    return b;
  }

  /**
   * {@link #chars(Utf8Text, long, int)} into {@code a} from index {@code n}, in room made by {@link
   * Utf8Text#reserve}; returns the index after the last character (digits stored in local
   * variables, one array store each).
   */
  private static int chars(byte[] a, int n, long f, int e) {
    // len: 10^(len-1) <= f < 10^len
    int len = flog10pow2(Long.SIZE - Long.numberOfLeadingZeros(f));
    if (f >= POW10[len]) {
      len += 1;
    }
    // 17 digits: f 10^e = 0.f' × 10^e'
    f *= POW10[H - len];
    e += len;
    // h: the first digit; m: the next 8; l: the last 8 (floor(f / 10^8) = floor(f ×
    // 193_428_131_138_340_668 / 2^84); floor(hm / 10^8) = floor(hm × 1_441_151_881 / 2^57))
    long hm = multiplyHigh(f, 193_428_131_138_340_668L) >>> 20;
    int l = (int) (f - 100_000_000L * hm);
    int h = (int) ((hm * 1_441_151_881L) >>> 57);
    int m = (int) (hm - 100_000_000L * h);
    if (0 < e && e <= 7) {
      // plain, no leading zeros: e digits before the point
      a[n++] = (byte) ('0' + h);
      int y = y(m);
      int i = 1;
      for (; i < e; ++i) {
        int d = 10 * y;
        a[n++] = (byte) ('0' + (d >>> 28));
        y = d & MASK_28;
      }
      a[n++] = '.';
      for (; i <= 8; ++i) {
        int d = 10 * y;
        a[n++] = (byte) ('0' + (d >>> 28));
        y = d & MASK_28;
      }
      return lowDigits(a, n, l);
    }
    if (-3 < e && e <= 0) {
      // plain with leading zeros: 0.00ddd
      a[n++] = '0';
      a[n++] = '.';
      for (; e < 0; ++e) {
        a[n++] = '0';
      }
      a[n++] = (byte) ('0' + h);
      n = eightDigits(a, n, m);
      return lowDigits(a, n, l);
    }
    // scientific: d.ddddE±x
    a[n++] = (byte) ('0' + h);
    a[n++] = '.';
    n = eightDigits(a, n, m);
    n = lowDigits(a, n, l);
    return exponent(a, n, e - 1);
  }

  /** The last 8 digits {@code l} after index {@code n}, then trailing zeros removed. */
  private static int lowDigits(byte[] a, int n, int l) {
    if (l != 0) {
      n = eightDigits(a, n, l);
    }
    // trailing zeros go, but not the digit right after the point
    while (a[n - 1] == '0') {
      n--;
    }
    if (a[n - 1] == '.') {
      n++;
    }
    return n;
  }

  /** The 8 digits of {@code m < 10^8}, left to right, with leading zeros, from index {@code n}. */
  private static int eightDigits(byte[] a, int n, int m) {
    int y = y(m);
    for (int i = 0; i < 8; ++i) {
      int d = 10 * y;
      a[n + i] = (byte) ('0' + (d >>> 28));
      y = d & MASK_28;
    }
    return n + 8;
  }

  /**
   * floor((a + 1) 2^28 / 10^8) - 1 for a < 10^8: a as a 28-bit binary fraction of 10^8, from which
   * each multiplication by 10 pushes out the next decimal digit (the left-to-right extraction of
   * the JDK's {@code DoubleToDecimal}; floor(x / 10^8) = floor(x × 193_428_131_138_340_668 / 2^84)
   * for x < 10^17).
   */
  private static int y(int a) {
    return (int) (multiplyHigh((long) (a + 1) << 28, 193_428_131_138_340_668L) >>> 20) - 1;
  }

  /** The exponent {@code E±x} from index {@code n}. */
  private static int exponent(byte[] a, int n, int e) {
    a[n++] = 'E';
    if (e < 0) {
      a[n++] = '-';
      e = -e;
    }
    if (e >= 100) {
      int d = (e * 1_311) >>> 17; // e / 100 for e < 1000
      a[n++] = (byte) ('0' + d);
      e -= 100 * d;
      int t = (e * 103) >>> 10; // e / 10 for e < 100
      a[n++] = (byte) ('0' + t);
      a[n++] = (byte) ('0' + e - 10 * t);
      return n;
    }
    if (e >= 10) {
      int t = (e * 103) >>> 10;
      a[n++] = (byte) ('0' + t);
      a[n++] = (byte) ('0' + e - 10 * t);
      return n;
    }
    a[n++] = (byte) ('0' + e);
    return n;
  }

  // floor(e log10 2), floor(e log10(3/4 × 2)), floor(e log2 10), exact for |e| <= 2^14 or so
  private static int flog10pow2(int e) {
    return (int) ((e * 661_971_961_083L) >> 41);
  }

  private static int flog10threeQuartersPow2(int e) {
    return (int) ((e * 661_971_961_083L + -274_743_187_321L) >> 41);
  }

  private static int flog2pow10(int e) {
    return (int) ((e * 913_124_641_741L) >> 38);
  }

  private static long[] powersOfTen() {
    long[] p = new long[H + 1];
    p[0] = 1;
    for (int i = 1; i <= H; i++) {
      p[i] = 10 * p[i - 1];
    }
    return p;
  }

  private static long[] table() {
    long[] g = new long[(K_MAX - K_MIN + 1) << 1];
    BigInteger mask63 = BigInteger.ONE.shiftLeft(63).subtract(BigInteger.ONE);
    // 10^0 ... 10^-K_MIN, each from the one before
    BigInteger[] tens = new BigInteger[-K_MIN + 1];
    tens[0] = BigInteger.ONE;
    for (int i = 1; i < tens.length; i++) {
      tens[i] = tens[i - 1].multiply(BigInteger.TEN);
    }
    for (int k = K_MIN; k <= K_MAX; k++) {
      // r such that 10^-k = β 2^r with 2^125 <= β < 2^126
      int r = flog2pow10(-k) - 125;
      BigInteger floor;
      if (k <= 0) {
        BigInteger n = tens[-k];
        floor = r <= 0 ? n.shiftLeft(-r) : n.shiftRight(r);
      } else {
        floor = BigInteger.ONE.shiftLeft(-r).divide(tens[k]);
      }
      BigInteger gk = floor.add(BigInteger.ONE);
      g[(k - K_MIN) << 1] = gk.shiftRight(63).longValueExact();
      g[(k - K_MIN) << 1 | 1] = gk.and(mask63).longValue();
    }
    return g;
  }
}
