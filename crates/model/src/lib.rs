pub mod ability;
pub mod catalog;
pub mod effects;
pub mod scrip;
pub mod settings;
pub mod spec;
pub mod stacks;
pub mod statuses;
