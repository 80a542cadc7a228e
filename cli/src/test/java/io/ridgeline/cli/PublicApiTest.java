package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.domain.JavaTypeVariable;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Pins the public API of the library modules (core, hardware, models, serving, validation): the
 * classes Immutables generates ({@code ImmutableChip}, {@code ImmutablePoolSpec.Builder}, …) are
 * package-private, and no public or protected member of a public type names one, in its return
 * type, parameters, type parameters, field type or supertypes (generic arguments included). A user
 * builds a value with {@code X.builder()}, whose {@code X.Builder} is the one place a generated
 * type shows: as the package-private superclass of the builder (Immutables' "extending builder"),
 * whose public setters return {@code X.Builder} and whose {@code build()} returns {@code X}.
 */
final class PublicApiTest {
  private static final Pattern GENERATED =
      Pattern.compile("io\\.ridgeline\\..*\\.Immutable[A-Z].*");
  private static final Set<String> LIBRARY =
      Set.of(
          "io.ridgeline.core",
          "io.ridgeline.hardware",
          "io.ridgeline.models",
          "io.ridgeline.serving",
          "io.ridgeline.validation");

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(LIBRARY.toArray(String[]::new));
  }

  private static boolean generated(JavaClass c) {
    return GENERATED.matcher(c.getName()).matches();
  }

  private static boolean inLibrary(JavaClass c) {
    return LIBRARY.stream()
        .anyMatch(p -> c.getPackageName().equals(p) || c.getPackageName().startsWith(p + "."));
  }

  /** Reachable from another package: public, and every enclosing class public too. */
  private static boolean exported(JavaClass c) {
    for (Optional<JavaClass> k = Optional.of(c); k.isPresent(); k = k.get().getEnclosingClass()) {
      if (!k.get().getModifiers().contains(JavaModifier.PUBLIC)) {
        return false;
      }
    }
    return true;
  }

  private static boolean visible(Set<JavaModifier> modifiers) {
    return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
  }

  /** Every generated class a type involves, its generic arguments and bounds included. */
  private static List<String> generatedIn(JavaType type) {
    List<String> out = new ArrayList<>();
    for (JavaClass raw : type.getAllInvolvedRawTypes()) {
      if (generated(raw)) {
        out.add(raw.getName());
      }
    }
    return out;
  }

  private static void typeParameters(
      String where, List<? extends JavaTypeVariable<?>> parameters, List<String> leaks) {
    for (JavaTypeVariable<?> v : parameters) {
      for (JavaType bound : v.getUpperBounds()) {
        generatedIn(bound).forEach(g -> leaks.add(where + " <" + v.getName() + "> bound: " + g));
      }
    }
  }

  /**
   * The documented extending builder: {@code X.Builder}, nested in {@code X}, extends the generated
   * {@code ImmutableX.Builder} of the same package.
   */
  private static boolean extendingBuilder(JavaClass c, JavaClass superclass) {
    Optional<JavaClass> owner = c.getEnclosingClass();
    return c.getSimpleName().equals("Builder")
        && owner.isPresent()
        && superclass.getPackageName().equals(c.getPackageName())
        && superclass.getSimpleName().equals("Builder")
        && superclass
            .getEnclosingClass()
            .map(g -> g.getSimpleName().equals("Immutable" + owner.get().getSimpleName()))
            .orElse(false);
  }

  private static List<String> leaks(JavaClass c) {
    List<String> leaks = new ArrayList<>();
    String type = c.getName();
    typeParameters(type, c.getTypeParameters(), leaks);
    c.getSuperclass()
        .filter(s -> !extendingBuilder(c, s.toErasure()))
        .ifPresent(s -> generatedIn(s).forEach(g -> leaks.add(type + " extends " + g)));
    for (JavaType i : c.getInterfaces()) {
      generatedIn(i).forEach(g -> leaks.add(type + " implements " + g));
    }
    // the members a user reaches through c: its own, and those it inherits from non-public
    // superclasses (a generated builder's setters), bridges included
    List<JavaCodeUnit> units = new ArrayList<>(c.getConstructors());
    units.addAll(c.getAllMethods());
    for (JavaCodeUnit u : units) {
      if (!visible(u.getModifiers()) || !inLibrary(u.getOwner())) {
        continue;
      }
      String where = type + "." + u.getName() + " (declared in " + u.getOwner().getName() + ")";
      typeParameters(where, u.getTypeParameters(), leaks);
      generatedIn(u.getReturnType()).forEach(g -> leaks.add(where + " returns " + g));
      for (JavaType p : u.getParameterTypes()) {
        generatedIn(p).forEach(g -> leaks.add(where + " takes " + g));
      }
    }
    for (JavaField f : c.getAllFields()) {
      if (visible(f.getModifiers()) && inLibrary(f.getOwner())) {
        generatedIn(f.getType()).forEach(g -> leaks.add(type + "." + f.getName() + " is a " + g));
      }
    }
    return leaks;
  }

  @Test
  void importedTheLibrary_includingGeneratedClasses() {
    // guards the two tests below against an empty import: every module has value types
    assertThat(classes.stream().filter(PublicApiTest::generated).map(JavaClass::getName))
        .contains(
            "io.ridgeline.core.ImmutablePrecisions",
            "io.ridgeline.hardware.ImmutableChip",
            "io.ridgeline.models.ImmutableModel",
            "io.ridgeline.serving.ImmutablePoolSpec",
            "io.ridgeline.serving.ImmutablePoolSpec$Builder",
            "io.ridgeline.serving.efficiency.ImmutableEfficiency",
            "io.ridgeline.serving.plan.ImmutablePlanRequest");
  }

  @Test
  void generatedClasses_arePackagePrivate() {
    assertThat(
            classes.stream()
                .filter(PublicApiTest::generated)
                .filter(PublicApiTest::exported)
                .map(JavaClass::getName))
        .as("generated Immutable* classes reachable from another package")
        .isEmpty();
  }

  @Test
  void publicTypes_nameNoGeneratedClass() {
    List<String> leaks = new ArrayList<>();
    classes.stream()
        .filter(PublicApiTest::exported)
        .filter(c -> !generated(c))
        .forEach(c -> leaks.addAll(leaks(c)));
    assertThat(leaks).as("public signatures that name a generated Immutable* class").isEmpty();
  }
}
