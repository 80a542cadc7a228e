package io.ridgeline.cli;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.base.Splitter;
import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.VectorHints;
import de.erichseifert.vectorgraphics2d.svg.SVGProcessor;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.font.FontRenderContext;
import java.awt.font.TextLayout;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.knowm.xchart.XYChart;

/**
 * Paints charts with a title that always fits: XChart centres its one-line title on the plot and
 * clips it at the image's edges, so the title is drawn here instead, centred on the image, in the
 * largest font from {@value #TITLE_POINTS} down to {@value #MIN_TITLE_POINTS} points that fits on
 * at most {@value #MAX_TITLE_LINES} lines, wrapped at spaces. In SVG the title is real text ({@code
 * <text>}); XChart draws its other labels as outlines, whose coordinates are rounded to 0.1 px.
 */
final class ChartRendering {
  static final float TITLE_POINTS = 20f;
  static final float MIN_TITLE_POINTS = 12f;
  static final int MAX_TITLE_LINES = 3;

  /** The longest title drawn, characters; see {@link #clipped}. */
  static final int MAX_TITLE_CHARS = 400;

  /** Free space left and right of the title, px. */
  static final int TITLE_MARGIN = 12;

  private ChartRendering() {}

  /** The title's font and lines as they are drawn on a chart {@code width} px wide. */
  record TitleLayout(Font font, List<String> lines, double lineHeight) {
    /** The widest line in px, under {@code frc}. */
    double width(FontRenderContext frc) {
      return lines.stream()
          .mapToDouble(l -> font.getStringBounds(l, frc).getWidth())
          .max()
          .orElse(0);
    }
  }

  /** The render context charts are measured and painted with (anti-aliased, fractional). */
  static FontRenderContext frc() {
    return new FontRenderContext(null, true, true);
  }

  /**
   * The title of {@code chart} laid out to fit its width: the largest font size whose wrapped lines
   * all fit within the width less the margins on at most {@link #MAX_TITLE_LINES} lines, else the
   * smallest size with words broken where a single word is too wide.
   */
  static TitleLayout title(XYChart chart, Font base) {
    FontRenderContext frc = frc();
    double room = chart.getWidth() - 2.0 * TITLE_MARGIN;
    String text = clipped(chart.getTitle() == null ? "" : chart.getTitle());
    for (float pt = TITLE_POINTS; pt >= MIN_TITLE_POINTS; pt -= 0.5f) {
      Font f = base.deriveFont(pt);
      List<String> lines = wrap(text, f, frc, room);
      if (lines.size() <= MAX_TITLE_LINES) {
        return new TitleLayout(f, lines, lineHeight(f, frc));
      }
    }
    Font f = base.deriveFont(MIN_TITLE_POINTS);
    return new TitleLayout(f, wrap(text, f, frc, room), lineHeight(f, frc));
  }

  /**
   * {@code title} cut to {@value #MAX_TITLE_CHARS} characters (the last one an ellipsis): three
   * lines of a 1,200 px chart hold about 450 characters at the smallest size, so a longer title (a
   * chip file's 6,000-character id) could not be read anyway, and measuring it is what costs.
   */
  static String clipped(String title) {
    return title.length() <= MAX_TITLE_CHARS
        ? title
        : title.substring(0, MAX_TITLE_CHARS - 1) + "\u2026";
  }

  private static double lineHeight(Font f, FontRenderContext frc) {
    return f.getLineMetrics("Ag", frc).getHeight();
  }

  /** Greedy word wrap of {@code text} into lines at most {@code room} px wide. */
  static List<String> wrap(String text, Font f, FontRenderContext frc, double room) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : Splitter.on(' ').split(text)) {
      String candidate = line.length() == 0 ? word : line + " " + word;
      if (f.getStringBounds(candidate, frc).getWidth() <= room || line.length() == 0) {
        line.setLength(0);
        line.append(candidate);
      } else {
        lines.add(line.toString());
        line.setLength(0);
        line.append(word);
      }
    }
    lines.add(line.toString());
    // a single word wider than the room is cut into pieces that fit
    List<String> out = new ArrayList<>();
    for (String l : lines) {
      String rest = l;
      while (f.getStringBounds(rest, frc).getWidth() > room && rest.length() > 1) {
        // the longest prefix that fits, by bisection (a prefix's width grows with its length):
        // lo fits or is 1, hi does not fit
        int lo = 1;
        int hi = rest.length();
        while (hi - lo > 1) {
          int mid = (lo + hi) >>> 1;
          if (f.getStringBounds(rest.substring(0, mid), frc).getWidth() <= room) {
            lo = mid;
          } else {
            hi = mid;
          }
        }
        int n = lo;
        out.add(rest.substring(0, n));
        rest = rest.substring(n);
      }
      out.add(rest);
    }
    return out;
  }

  /**
   * Paints {@code chart} on {@code g} with the fitted title: XChart reserves the title's height
   * with an invisible placeholder, then the lines are drawn centred on the image.
   */
  static void paint(XYChart chart, Graphics2D g) {
    String title = chart.getTitle();
    Font base = chart.getStyler().getChartTitleFont();
    boolean boxVisible = chart.getStyler().isChartTitleBoxVisible();
    TitleLayout layout = title(chart, base);
    double height = layout.lines().size() * layout.lineHeight();
    // a placeholder glyph whose bounds are as tall as the wrapped title reserves the room
    FontRenderContext frc = frc();
    double unit = new TextLayout("I", base.deriveFont(100f), frc).getBounds().getHeight() / 100;
    chart.setTitle("I");
    chart.getStyler().setChartTitleFont(base.deriveFont((float) (height / unit)));
    chart.getStyler().setChartTitleBoxVisible(false);
    try {
      chart.paint(g, chart.getWidth(), chart.getHeight());
    } finally {
      chart.setTitle(title);
      chart.getStyler().setChartTitleFont(base);
      chart.getStyler().setChartTitleBoxVisible(boxVisible);
    }
    int top = chart.getStyler().getChartPadding();
    // cover the placeholder, then write the lines
    g.setColor(chart.getStyler().getChartBackgroundColor());
    // XChart draws the placeholder's baseline at padding + height + titlePadding; "I" has no
    // descender, so its ink ends there
    int cover = (int) Math.ceil(top + height + chart.getStyler().getChartTitlePadding() + 1);
    g.fillRect(0, 0, chart.getWidth(), cover);
    g.setColor(chart.getStyler().getChartFontColor());
    g.setFont(layout.font());
    g.setRenderingHint(
        RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    FontMetrics fm = g.getFontMetrics();
    for (int i = 0; i < layout.lines().size(); i++) {
      String line = layout.lines().get(i);
      float x =
          (float) ((chart.getWidth() - layout.font().getStringBounds(line, frc).getWidth()) / 2);
      float y = (float) (top + i * layout.lineHeight() + fm.getAscent());
      g.drawString(line, x, y);
    }
  }

  /**
   * Saves {@code chart} as PNG or SVG, by the file's extension; creates missing parent folders.
   *
   * @throws IllegalArgumentException when the extension is neither {@code .png} nor {@code .svg}
   * @throws UncheckedIOException when the file cannot be written
   */
  static Path save(XYChart chart, Path file) {
    checkPlotFile(file);
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      // whole or absent, also under concurrent writers of one file (AtomicFiles)
      AtomicFiles.writeStream(
          file,
          out -> {
            if (isSvg(file)) {
              out.write(svg(chart).getBytes(StandardCharsets.UTF_8));
            } else {
              ImageIO.write(png(chart), "png", out);
            }
            return null;
          });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write plot " + file + ": " + e.getMessage(), e);
    }
    return file;
  }

  /**
   * Checks that {@code file} names a PNG or SVG file, before any work is done.
   *
   * @throws IllegalArgumentException naming the file when it does not
   */
  static void checkPlotFile(Path file) {
    String name = file.getFileName() == null ? "" : file.getFileName().toString();
    String lower = name.toLowerCase(Locale.ROOT);
    checkArgument(
        lower.endsWith(".png") || lower.endsWith(".svg"),
        "--plot must name a .png or .svg file: '%s'",
        file);
  }

  private static boolean isSvg(Path file) {
    return file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".svg");
  }

  /** The chart as an RGB image. */
  static BufferedImage png(XYChart chart) {
    BufferedImage image =
        new BufferedImage(chart.getWidth(), chart.getHeight(), BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, chart.getWidth(), chart.getHeight());
      paint(chart, g);
    } finally {
      g.dispose();
    }
    return image;
  }

  private static final Pattern LONG_DECIMAL = Pattern.compile("(-?\\d+\\.\\d)\\d+");
  private static final Pattern GEOMETRY = Pattern.compile("( (?:d|transform|points)=\")([^\"]*)\"");

  /** The chart as an SVG document, title as text, other coordinates rounded to 0.1 px. */
  static String svg(XYChart chart) {
    VectorGraphics2D g = new VectorGraphics2D();
    g.setRenderingHint(VectorHints.KEY_TEXT, VectorHints.VALUE_TEXT_DEFAULT);
    paint(chart, g);
    PageSize page = new PageSize(0, 0, chart.getWidth(), chart.getHeight());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      new SVGProcessor().getDocument(g.getCommands(), page).writeTo(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String svg = bytes.toString(StandardCharsets.UTF_8);
    // round geometry attributes only: the title's text keeps its digits
    Matcher m = GEOMETRY.matcher(svg);
    StringBuilder out = new StringBuilder(svg.length() / 2);
    while (m.find()) {
      String rounded = LONG_DECIMAL.matcher(m.group(2)).replaceAll("$1");
      m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + rounded + "\""));
    }
    m.appendTail(out);
    return out.toString();
  }
}
