package io.ridgeline.serving;

import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Interconnect;
import java.util.Optional;

/**
 * The one rule for which link a collective or a transfer crosses.
 *
 * <ul>
 *   <li>Within a pool, a group of {@code n} chips talks over the scale-up fabric when it fits the
 *       fabric's domain, else over the scale-out network (else the scale-up fabric, if that is all
 *       the chip has).
 *   <li>Between two pools (pd's KV transfer, afd's activations), chips of one type whose pools fit
 *       one scale-up domain together use the fabric; otherwise the first pool's scale-out network
 *       (else its scale-up fabric).
 * </ul>
 */
public final class Links {
  private Links() {}

  /** The link a collective among {@code group} chips of type {@code chip} crosses, if any. */
  public static Optional<Interconnect> within(Chip chip, int group) {
    Optional<Interconnect> up = chip.scaleUp();
    if (up.isPresent() && group <= up.get().domainSize()) {
      return up;
    }
    return chip.scaleOut().or(() -> up);
  }

  /**
   * The link between a pool of {@code fromChips} {@code from} chips and one of {@code toChips}
   * {@code to} chips, if any: see the class comment.
   */
  public static Optional<Interconnect> between(Chip from, int fromChips, Chip to, int toChips) {
    boolean oneDomain =
        from.id().equals(to.id())
            && from.scaleUp().map(u -> fromChips + toChips <= u.domainSize()).orElse(false);
    return oneDomain ? from.scaleUp() : from.scaleOut().or(from::scaleUp);
  }
}
