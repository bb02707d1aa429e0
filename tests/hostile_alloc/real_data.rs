//! Real data: the lazy path allocates nothing on the corpora.

use super::*;

#[test]
fn the_lazy_path_allocates_nothing_on_real_data() {
    common::with_big_stack(|| {
        let (mut values, mut frames) = (0, 0);
        for version in [Version::Godot3, Version::Godot4] {
            for case in common::manifest(version) {
                let name = case["name"].as_str().unwrap().to_owned();
                let kind = case["kind"].as_str().unwrap().to_owned();
                if case["encode_failed"] == true {
                    continue;
                }
                let options = common::options_for(version, case["full_objects"] == true);
                let bytes = common::corpus(version, &name);
                let what = format!("{version:?} {name}");
                let what = what.as_str();
                let prefix = match kind.as_str() {
                    "var2bytes" | "var_to_bytes" => {
                        let (validated, prefix, walked) = lazy_results(what, &bytes, options);
                        validated.unwrap_or_else(|e| panic!("{what}: {e}"));
                        assert_eq!(prefix, Ok(bytes.len()), "{what}");
                        assert!(walked.unwrap_or_else(|e| panic!("{what}: {e}")) >= 1);
                        values += 1;
                        continue;
                    }
                    "file_store_var" => LengthPrefix::store_var(false),
                    "streampeer_put_var" => LengthPrefix::stream_peer(false),
                    "packetpeerstream_put_var" => LengthPrefix::packet_peer_stream(),
                    other => panic!("{what}: unknown kind {other}"),
                };
                let (count, walked) = no_alloc(what, || {
                    let (mut count, mut walked) = (0, 0);
                    for frame in framing::frames(&bytes, prefix, options) {
                        let frame = frame?;
                        gdvariant::validate(frame.payload(), options)?;
                        walked += lazy_walk(frame.value())?;
                        count += 1;
                    }
                    Ok::<_, Box<dyn std::error::Error>>((count, walked))
                })
                .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(count, case["expected_items"].as_array().unwrap().len(), "{what}");
                assert!(walked >= count);
                frames += count;
            }
        }
        assert!(values > 290, "{values} value cases");
        assert!(frames >= 12, "{frames} frames");
    });
}
