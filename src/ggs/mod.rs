//! `emilia ggs`: a client for the Generic Game Server's Othello service `/os`, where
//! Othello programs play each other online. One [`Session`](emilia_core::engine::Session) a
//! game, each on a thread of its own; the server's clocks are told to the core's time
//! manager, which budgets every search.
//!
//! - [`connection`]: the socket, lines in and out, the session log with the password
//!   redacted;
//! - [`message`]: the server's lines and board blocks read into messages;
//! - [`clock`]: GGS clocks and their translation into the core's;
//! - [`policy`]: which requests are accepted;
//! - [`game`]: one game played;
//! - [`record`]: finished games as GGF and a result line;
//! - [`client`]: the loop over it all, with reconnection.

pub(crate) mod client;
pub(crate) mod clock;
pub(crate) mod connection;
pub(crate) mod game;
pub(crate) mod message;
pub(crate) mod policy;
pub(crate) mod record;
