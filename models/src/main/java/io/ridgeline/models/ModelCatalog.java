package io.ridgeline.models;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.ridgeline.core.Names;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * An immutable set of models by id. Extend it by composition: {@code catalog.with(myModel)} returns
 * a new catalog and leaves this one unchanged.
 */
public final class ModelCatalog {
  private final ImmutableMap<String, Model> byId;

  private ModelCatalog(Map<String, Model> byId) {
    this.byId = ImmutableMap.copyOf(byId);
  }

  static ModelCatalog of(List<Model> models) {
    Map<String, Model> m = new LinkedHashMap<>();
    for (Model model : models) {
      m.put(model.id().toLowerCase(Locale.ROOT), model);
    }
    return new ModelCatalog(m);
  }

  /** The model with this id (case-insensitive), if any. */
  public Optional<Model> find(String id) {
    return id == null
        ? Optional.empty()
        : Optional.ofNullable(byId.get(id.toLowerCase(Locale.ROOT)));
  }

  /**
   * The model with this id (case-insensitive).
   *
   * @throws NoSuchElementException listing the known ids and the closest match
   */
  public Model byId(String id) {
    return find(id).orElseThrow(() -> Names.unknown("model", id, ids()));
  }

  /** Ids in catalog order. */
  public List<String> ids() {
    return byId.values().stream().map(Model::id).collect(ImmutableList.toImmutableList());
  }

  /** Every model in catalog order. */
  public List<Model> all() {
    return byId.values().asList();
  }

  /** A new catalog with {@code model} added (replacing one of the same id). */
  public ModelCatalog with(Model model) {
    Map<String, Model> m = new LinkedHashMap<>(byId);
    m.put(model.id().toLowerCase(Locale.ROOT), model);
    return new ModelCatalog(m);
  }

  /** A new catalog with the model of a {@code config.json} added, its id the file's base name. */
  public ModelCatalog withConfig(Path config) {
    return with(Models.fromConfig(config));
  }

  @Override
  public String toString() {
    return "ModelCatalog" + ids();
  }
}
