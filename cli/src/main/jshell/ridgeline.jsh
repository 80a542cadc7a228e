// Ridgeline JShell start-up: the common imports.
import io.ridgeline.core.*;
import static io.ridgeline.core.Units.*;
import io.ridgeline.hardware.*;
import io.ridgeline.models.*;
import io.ridgeline.serving.*;
import io.ridgeline.serving.efficiency.*;
import io.ridgeline.serving.plan.*;
import io.ridgeline.serving.sweep.*;
import java.nio.file.Path;
// One default everywhere: Efficiency.standard(chip), the calibrated default profile the command
// line uses; .efficiency(Efficiency.ideal()) gives the roofline bound.
System.out.println("Ridgeline: try RooflineModel.of(Models.byId(\"llama-3.1-8b\"), Chips.byId(\"h100-sxm\")).decode(1, 1024)");
System.out.println("Calibrated by default (Efficiency.standard(chip), as the command line); the roofline bound: RooflineModel.builder().model(m).chip(c).efficiency(Efficiency.ideal()).build()");
