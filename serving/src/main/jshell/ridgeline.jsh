// Ridgeline JShell start-up: the common imports.
import io.ridgeline.core.*;
import static io.ridgeline.core.Units.*;
import io.ridgeline.hardware.*;
import io.ridgeline.models.*;
import io.ridgeline.serving.*;
import java.nio.file.Path;
System.out.println("Ridgeline: try RooflineModel.of(Models.byId(\"llama-3.1-8b\"), Chips.byId(\"h100-sxm\")).decode(1, 1024)");
