/**
 * Model architectures read from HuggingFace {@code config.json} files, their parameter and cache
 * counts, and the operations (FLOPs and bytes by kind) of each inference phase.
 *
 * <p>Entry point for JShell: {@code Models.byId("llama-3.1-8b")}, {@code
 * Models.fromConfig(Path.of("config.json"))}.
 *
 * <p>Counting conventions are those of {@code io.ridgeline.core}: 1 multiply-add = 2 FLOPs; a byte
 * counts each time it crosses between memory and the compute units. Parameters count every weight
 * matrix, bias and norm weight; embeddings and an untied LM head are included.
 */
@CheckReturnValue
package io.ridgeline.models;

import com.google.errorprone.annotations.CheckReturnValue;
