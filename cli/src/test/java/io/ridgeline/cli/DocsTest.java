package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The generated documentation is current: docs/cli.md is what {@link DocsGenerator} writes from
 * today's command definitions, and docs/validation.md's generated sections what it writes from the
 * shipped validation files. With {@code -Dridgeline.docs.write=true} the test writes them instead
 * ({@link DocsGenerator#REGENERATE}).
 */
final class DocsTest {
  // surefire runs in the module's folder
  private static final Path DOCS = Path.of("..", "docs");
  private static final boolean WRITE = Boolean.getBoolean("ridgeline.docs.write");
  private static final String STALE = " is stale; regenerate it from the repository root with: ";

  @Test
  void cliReference_generatedFromCommandDefinitions_matchesDocsCliMd() {
    Path file = DOCS.resolve("cli.md");
    String generated = DocsGenerator.cliReference();
    if (WRITE) {
      DocsGenerator.write(file, generated);
    }
    assertThat(DocsGenerator.read(file))
        .as("docs/cli.md" + STALE + DocsGenerator.REGENERATE)
        .isEqualTo(generated);
  }

  @Test
  void validationTables_generatedFromShippedFiles_matchReadmeAndDocsValidationMd() {
    for (String name : DocsGenerator.GENERATED_PAGES) {
      Path file = Path.of("..").resolve(name);
      String page = DocsGenerator.read(file);
      String generated = DocsGenerator.withValidationTables(page);
      if (WRITE) {
        DocsGenerator.write(file, generated);
      }
      assertThat(page).contains("<!-- generated: ");
      assertThat(DocsGenerator.read(file))
          .as(name + STALE + DocsGenerator.REGENERATE)
          .isEqualTo(generated);
    }
  }

  @Test
  void cliReference_everySubcommand_hasItsSection() {
    String reference = DocsGenerator.cliReference();
    for (String command :
        new String[] {
          "chips",
          "models",
          "roofline",
          "frontier",
          "crossover",
          "intensity",
          "plan",
          "sweep",
          "validate",
          "calibrate"
        }) {
      assertThat(reference).contains("\n## " + command + "\n");
    }
    // a default from the option's field, and a required option in the synopsis
    assertThat(reference).contains("ridgeline frontier --model");
  }

  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

  @Test
  void links_inReadmeAndDocs_pointAtFilesAndHeadingsThatExist() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(Path.of("..", "README.md"));
    try (Stream<Path> files = Files.list(DOCS)) {
      files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    List<String> broken = new ArrayList<>();
    for (Path page : pages) {
      boolean fenced = false;
      for (String line : Files.readAllLines(page)) {
        if (line.strip().startsWith("```")) {
          fenced = !fenced;
        }
        Matcher m = LINK.matcher(line);
        while (!fenced && m.find()) {
          String target = m.group(1);
          if (target.matches("[a-z]+:.*")) {
            continue; // http:, https:, mailto:
          }
          int hash = target.indexOf('#');
          String file = hash < 0 ? target : target.substring(0, hash);
          Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
          if (!Files.exists(resolved)) {
            broken.add(page + ": " + target + " (no such file)");
          } else if (hash >= 0 && !anchors(resolved).contains(target.substring(hash + 1))) {
            broken.add(page + ": " + target + " (no such heading)");
          }
        }
      }
    }
    assertThat(broken).as("broken relative links").isEmpty();
  }

  /** The anchors GitHub gives a page's headings: lower case, punctuation dropped, '-' for ' '. */
  private static Set<String> anchors(Path page) throws IOException {
    Set<String> out = new HashSet<>();
    boolean fenced = false;
    for (String line : Files.readAllLines(page)) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
      }
      if (!fenced && line.startsWith("#")) {
        String heading = line.replaceFirst("^#+ ", "").toLowerCase(Locale.ROOT);
        out.add(heading.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
      }
    }
    return out;
  }
}
