pub mod matches;
pub mod riftbound_game_scenario;
pub mod riftbound_games;
pub mod riftbound_scenario;
pub mod riftbound_suite;
pub mod scenario;
pub mod suite;
