//! The tournament aggregate, command by command: given(events) / when(command) / then(events or
//! error), plus property tests over random command sequences.

mod support;

mod availability;
mod cancellation;
mod discipline;
mod games;
mod identity;
mod lifecycle;
mod online;
mod pairing_data;
mod pairing_input;
mod props;
mod registration;
mod results;
mod round_robin;
mod rounds;
mod teams;
