package io.ridgeline.core;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.immutables.value.Value;

/**
 * The one Immutables style of every Ridgeline value type: abstract types are documented by hand and
 * expose {@code builder()}/{@code of(...)}; generated {@code Immutable*} classes carry Guava
 * immutable collections and are never named by users.
 */
@Target({ElementType.PACKAGE, ElementType.TYPE})
@Retention(RetentionPolicy.CLASS)
@Value.Style(
    typeImmutable = "Immutable*",
    get = {"is*", "get*"},
    defaults = @Value.Immutable(copy = true, prehash = false),
    depluralize = true,
    depluralizeDictionary = {"bytes:bytes"},
    visibility = Value.Style.ImplementationVisibility.PUBLIC)
public @interface RidgelineStyle {}
