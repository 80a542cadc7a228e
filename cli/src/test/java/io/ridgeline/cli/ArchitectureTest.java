package io.ridgeline.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Pins the layering over the compiled classes: core ← hardware, models ← serving ← validation ←
 * cli, and inside serving efficiency, queueing ← serving ← plan, sweep. No package depends upward
 * or sideways, no two packages form a cycle, and the library (everything below cli) uses no CLI
 * parser, chart library or AWT.
 */
final class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.ridgeline");
  }

  private static void mustNotDependOn(String layer, String... forbidden) {
    noClasses()
        .that()
        .resideInAPackage(layer + "..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(forbidden)
        .because(layer + " sits below " + String.join(", ", forbidden))
        .check(classes);
  }

  @Test
  void core_dependsOnNoOtherModule() {
    mustNotDependOn(
        "io.ridgeline.core",
        "io.ridgeline.hardware..",
        "io.ridgeline.models..",
        "io.ridgeline.serving..",
        "io.ridgeline.validation..",
        "io.ridgeline.cli..");
  }

  @Test
  void hardwareAndModels_dependOnlyOnCore() {
    mustNotDependOn(
        "io.ridgeline.hardware",
        "io.ridgeline.models..",
        "io.ridgeline.serving..",
        "io.ridgeline.validation..",
        "io.ridgeline.cli..");
    mustNotDependOn(
        "io.ridgeline.models",
        "io.ridgeline.hardware..",
        "io.ridgeline.serving..",
        "io.ridgeline.validation..",
        "io.ridgeline.cli..");
  }

  @Test
  void serving_neverImportsValidationOrCli() {
    mustNotDependOn("io.ridgeline.serving", "io.ridgeline.validation..", "io.ridgeline.cli..");
  }

  /**
   * Inside serving: efficiency and queueing sit below the pools (package {@code serving}), plan and
   * sweep above them, side by side.
   */
  @Test
  void servingPackages_layered() {
    noClasses()
        .that()
        .resideInAnyPackage("io.ridgeline.serving.efficiency..", "io.ridgeline.serving.queueing..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.ridgeline.serving",
            "io.ridgeline.serving.plan..",
            "io.ridgeline.serving.sweep..")
        .because("efficiency and queueing sit below the pools")
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage("io.ridgeline.serving.efficiency..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.ridgeline.serving.queueing..")
        .because("efficiency and queueing are independent")
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage("io.ridgeline.serving")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.ridgeline.serving.plan..", "io.ridgeline.serving.sweep..")
        .because("the pools sit below the planner and the sweep")
        .check(classes);
    mustNotDependOn("io.ridgeline.serving.plan", "io.ridgeline.serving.sweep..");
    mustNotDependOn("io.ridgeline.serving.sweep", "io.ridgeline.serving.plan..");
  }

  /** No cycle between any two packages of the project. */
  @Test
  void packages_freeOfCycles() {
    com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices()
        .matching("io.ridgeline.(**)")
        .should()
        .beFreeOfCycles()
        .check(classes);
  }

  @Test
  void validation_neverImportsCli() {
    mustNotDependOn("io.ridgeline.validation", "io.ridgeline.cli..");
  }

  @Test
  void library_usesNoCliParserChartsOrAwt() {
    for (String layer :
        new String[] {
          "io.ridgeline.core",
          "io.ridgeline.hardware",
          "io.ridgeline.models",
          "io.ridgeline.serving",
          "io.ridgeline.validation"
        }) {
      mustNotDependOn(
          layer, "picocli..", "org.knowm..", "java.awt..", "javax.imageio..", "org.junit..");
    }
  }
}
