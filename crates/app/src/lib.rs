pub mod jobs;
pub mod match_runs;
pub mod nightly;
pub mod riftbound_runs;
pub mod runs;
pub mod search;
pub mod sweep;
pub mod tune;
