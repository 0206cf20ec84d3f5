//! The engines of the subcommands that play (the protocol session, `play`, `move`, `ggs`):
//! built with the engine options given before the subcommand.

/// Engine options as `(name, value)` pairs for `Engine::set_option`.
pub(super) type EngineOptions = Vec<(String, String)>;

/// An engine with the options given before the subcommand.
pub(super) fn new_engine(options: &EngineOptions) -> anyhow::Result<emilia_core::engine::Engine> {
    new_engine_with_hash(options, emilia_core::engine::Engine::DEFAULT_HASH_MIB)
}

/// An engine with `hash_mib` MiB of tables unless `options` set `hash`, then `options`.
pub(super) fn new_engine_with_hash(
    options: &EngineOptions,
    hash_mib: usize,
) -> anyhow::Result<emilia_core::engine::Engine> {
    let mut engine = emilia_core::Engine::new(emilia_core::Config {
        hash_mib,
        ..emilia_core::Config::default()
    })?;
    for (name, value) in options {
        engine.set_option(name, value)?;
    }
    Ok(engine)
}
