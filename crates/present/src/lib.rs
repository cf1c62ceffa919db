pub mod card_text;
pub mod coverage;
pub mod fight_page;
pub mod game_page;
pub mod render;
pub mod showdown_page;
