// Ridgeline JShell start-up: the common imports.
import io.ridgeline.core.*;
import static io.ridgeline.core.Units.*;
import io.ridgeline.hardware.*;
import io.ridgeline.models.*;
import io.ridgeline.serving.*;
import java.nio.file.Path;
System.out.println("Ridgeline: try RooflineModel.of(Models.byId(\"llama-3.1-8b\"), Chips.byId(\"h100-sxm\")).decode(1, 1024)");
// RooflineModel.of(...) is the ideal roofline bound; the command line's default is calibrated, e.g.
// RooflineModel.builder().model(...).chip(...).efficiency(io.ridgeline.serving.validation.Profiles.builtIn().forEngine("trtllm").efficiency()).build()
System.out.println("Calibrated efficiency (the command line's default): io.ridgeline.serving.validation.Profiles.builtIn().forEngine(\"trtllm\").efficiency()");
