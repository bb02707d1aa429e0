//! Godot 4.6 (the web build in headless Chromium) over WebSocket through the proxy, to an echo
//! server and back.

use crate::godot::Engine;
use crate::support::*;

#[test]
#[ignore = "needs chromium, python3 and npm (.ci/run installs them)"]
fn godot4_websocket_through_the_proxy_and_back() {
    let echo = websocket_echo();
    let proxy = Proxy::start(&["--websocket", "--upstream", &echo.to_string(), "--godot", "4"]);
    let client = Engine::godot4_websocket(&format!("ws://{}/", proxy.addr));
    let result = client.result();
    assert!(result.starts_with("55 values"), "{result}");
    let (status, events) = proxy.stop();
    assert!(status.success());
    let summary = summary(&events);
    // The client's two refused packets were dropped on the way in; everything else crossed
    // both ways.
    assert_eq!(summary["drops"]["invalid_value"], 2, "{summary}");
    assert_eq!(summary["forwarded"]["to_server"]["frames"], 55, "{summary}");
    assert_eq!(summary["forwarded"]["to_client"]["frames"], 55, "{summary}");
    for ty in [
        "Nil",
        "bool",
        "int",
        "float",
        "String",
        "Vector2",
        "Vector2i",
        "Rect2",
        "Rect2i",
        "Vector3",
        "Vector3i",
        "Transform2D",
        "Vector4",
        "Vector4i",
        "Plane",
        "Quaternion",
        "AABB",
        "Basis",
        "Transform3D",
        "Projection",
        "Color",
        "StringName",
        "NodePath",
        "RID",
        "Object",
        "Callable",
        "Signal",
        "Dictionary",
        "Array",
        "PackedByteArray",
        "PackedInt32Array",
        "PackedInt64Array",
        "PackedFloat32Array",
        "PackedFloat64Array",
        "PackedStringArray",
        "PackedVector2Array",
        "PackedVector3Array",
        "PackedColorArray",
        "PackedVector4Array",
    ] {
        assert!(summary["by_type"][ty]["frames"].as_u64().unwrap_or(0) >= 2, "{ty}: {summary}");
    }
}
