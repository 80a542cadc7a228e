package io.ridgeline.core;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.immutables.value.Value;

/**
 * The one Immutables style of every Ridgeline value type: abstract types are documented by hand and
 * expose {@code builder()}/{@code of(...)}; the generated {@code Immutable*} classes are
 * package-private, carry Guava immutable collections and never appear in a public signature.
 *
 * <p>A type with a public builder declares it as Immutables' "extending builder", and {@code
 * overshadowImplementation} makes the generated setters return {@code X.Builder} and {@code
 * build()} return {@code X}:
 *
 * <pre>{@code
 * public static Builder builder() {
 *   return new Builder();
 * }
 *
 * public static final class Builder extends ImmutableX.Builder {
 *   Builder() {}   // package-private: Immutables needs a constructor it can see
 * }
 * }</pre>
 *
 * <p>A copy with one attribute changed is {@code X.builder().from(x).attribute(value).build()}.
 */
@Target({ElementType.PACKAGE, ElementType.TYPE})
@Retention(RetentionPolicy.CLASS)
@Value.Style(
    typeImmutable = "Immutable*",
    get = {"is*", "get*"},
    defaults = @Value.Immutable(copy = true, prehash = false),
    depluralize = true,
    depluralizeDictionary = {"bytes:bytes"},
    visibility = Value.Style.ImplementationVisibility.PACKAGE,
    builderVisibility = Value.Style.BuilderVisibility.PACKAGE,
    overshadowImplementation = true)
public @interface RidgelineStyle {}
