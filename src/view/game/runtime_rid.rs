//! The `RID` an `Array[RID]` stores for a full object (`Object::get_rid`): 0 for most classes,
//! but a new object of some classes allocates one, whose id only the running game knows, and
//! one class crashes the engine. Taken from Godot 4.6 (`corpus/probes/typed/godot4-extra.jsonl`,
//! the `rid_full_*` cases: an `Array[RID]` holding a full object of each class the decoder
//! instantiates, and `crashes-godot4-extra.json`); a unit test keeps the tables and the probe
//! files equal.

/// Whether the RID Godot stores for a new object of class `class` (its text) cannot be known
/// here: one allocated at run time, or a crash. O(log n).
pub(crate) fn has_runtime_rid(class: &[u8]) -> bool {
    let found = |list: &[&str]| list.binary_search_by(|name| name.as_bytes().cmp(class)).is_ok();
    found(CLASSES) || found(CRASHING)
}

/// Classes whose new object has a RID that is not 0. Sorted.
const CLASSES: &[&str] = &[
    "AnimatableBody2D",
    "AnimatableBody3D",
    "AnimatedTexture",
    "Area2D",
    "Area3D",
    "ArrayMesh",
    "BoxMesh",
    "BoxShape3D",
    "CameraAttributes",
    "CameraAttributesPhysical",
    "CameraAttributesPractical",
    "CameraTexture",
    "CanvasItemMaterial",
    "CapsuleMesh",
    "CapsuleShape2D",
    "CapsuleShape3D",
    "CharacterBody2D",
    "CharacterBody3D",
    "CircleShape2D",
    "Compositor",
    "CompositorEffect",
    "CompressedCubemap",
    "CompressedCubemapArray",
    "CompressedTexture2D",
    "CompressedTexture2DArray",
    "CompressedTexture3D",
    "ConcavePolygonShape2D",
    "ConcavePolygonShape3D",
    "ConeTwistJoint3D",
    "ConvexPolygonShape2D",
    "ConvexPolygonShape3D",
    "Cubemap",
    "CubemapArray",
    "CurveTexture",
    "CurveXYZTexture",
    "CylinderMesh",
    "CylinderShape3D",
    "DampedSpringJoint2D",
    "Environment",
    "ExternalTexture",
    "FogMaterial",
    "Generic6DOFJoint3D",
    "GradientTexture1D",
    "GradientTexture2D",
    "GrooveJoint2D",
    "HeightMapShape3D",
    "HingeJoint3D",
    "ImageTexture",
    "ImageTexture3D",
    "ImmediateMesh",
    "LightmapGIData",
    "MultiMesh",
    "NavigationAgent2D",
    "NavigationAgent3D",
    "NavigationLink2D",
    "NavigationLink3D",
    "NavigationObstacle2D",
    "NavigationObstacle3D",
    "NavigationRegion2D",
    "NavigationRegion3D",
    "NoiseTexture2D",
    "NoiseTexture3D",
    "ORMMaterial3D",
    "OccluderPolygon2D",
    "PanoramaSkyMaterial",
    "ParticleProcessMaterial",
    "PhysicalBone2D",
    "PhysicalBone3D",
    "PhysicalSkyMaterial",
    "PlaceholderCubemap",
    "PlaceholderCubemapArray",
    "PlaceholderMesh",
    "PlaceholderTexture2D",
    "PlaceholderTexture2DArray",
    "PlaceholderTexture3D",
    "PlaneMesh",
    "PointMesh",
    "PortableCompressedTexture2D",
    "PrimitiveMesh",
    "PrismMesh",
    "ProceduralSkyMaterial",
    "QuadMesh",
    "RibbonTrailMesh",
    "ShaderMaterial",
    "SphereMesh",
    "StandardMaterial3D",
    "TextLine",
    "TextMesh",
    "TextParagraph",
    "Texture2DArray",
    "Texture2DArrayRD",
    "Texture2DRD",
    "Texture3DRD",
    "TextureCubemapArrayRD",
    "TextureCubemapRD",
    "TorusMesh",
    "TubeTrailMesh",
    "VehicleBody3D",
    "ViewportTexture",
    "VisualShader",
    "WorldBoundaryShape2D",
    "WorldBoundaryShape3D",
];

/// Classes whose object crashes Godot 4.6 when an `Array[RID]` converts it (the probe's engine
/// died on them; `crashes-godot4-extra.json`). Sorted.
const CRASHING: &[&str] = &["Tree"];

#[cfg(test)]
mod tests {
    use super::*;

    /// The class of a `rid_full_*` probe case, and whether the engine gave it a RID other than 0.
    fn probe_case(line: &str) -> Option<(&str, bool)> {
        let name = line.split("\"name\": \"rid_full_").nth(1)?.split('"').next()?;
        Some((name, !line.contains("\"id\": 0}")))
    }

    #[test]
    fn tables_match_the_engine_probe() {
        let probe = include_str!("../../../corpus/probes/typed/godot4-extra.jsonl");
        let runtime = probe.lines().filter_map(probe_case).filter(|(_, rid)| *rid).map(|(c, _)| c);
        assert_eq!(CLASSES.len(), 102);
        assert!(runtime.eq(CLASSES.iter().copied()));
        let crashes = include_str!("../../../corpus/probes/typed/crashes-godot4-extra.json");
        let crashed = crashes
            .split("\"name\": \"rid_full_")
            .skip(1)
            .filter_map(|rest| rest.split('"').next());
        assert!(crashed.eq(CRASHING.iter().copied()));
        assert!(has_runtime_rid(b"ImageTexture") && has_runtime_rid(b"Tree"));
        assert!(!has_runtime_rid(b"Resource") && !has_runtime_rid(b"Node"));
    }
}
