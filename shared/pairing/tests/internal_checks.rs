//! The engines' internal checks (the library's `checks`, behind the `test-support` feature):
//! what only the internals can show, each described where it is written.

use arbiter_pairing::checks::{
    burstein, completion, dubov, lim, profile, round1, round2025, weight,
};

#[test]
fn burstein_exact_search_chooses_what_the_whole_enumeration_chooses() {
    burstein::the_exact_search_chooses_what_the_whole_enumeration_chooses();
}

#[test]
fn dubov_row_search_chooses_what_the_whole_enumeration_chooses() {
    dubov::the_row_search_chooses_what_the_whole_enumeration_chooses();
}

#[test]
fn lim_exact_colour_review_chooses_what_the_whole_enumeration_chooses() {
    lim::the_exact_colour_review_chooses_what_the_whole_enumeration_chooses();
}

#[test]
fn profile_recording_counts_the_solves_by_step_and_changes_nothing() {
    profile::recording_counts_the_solves_by_step_and_changes_nothing();
}

#[test]
fn dutch_completion_agrees_with_brute_force() {
    completion::completion_agrees_with_brute_force();
}

#[test]
fn dutch_round1_natural_pairing_equals_general_engine() {
    round1::natural_pairing_equals_general_engine();
}

#[test]
fn dutch_round1_exceptions_take_the_general_path() {
    round1::exceptions_take_the_general_path();
}

#[test]
fn dutch_bracket_layouts_pair_as_the_widest_and_ask_for_more_width_when_short() {
    round2025::bracket_layouts_pair_as_the_widest_and_ask_for_more_width_when_short();
}

#[test]
fn dutch_weight_shifts_and_borrows_across_limbs() {
    weight::shifts_and_borrows_across_limbs();
}

#[test]
fn dutch_weight_packer_equals_shifting_at_every_field() {
    weight::packer_equals_shifting_at_every_field();
}

#[test]
fn dutch_weight_breakdown_signs_compare_sums_of_powers() {
    weight::breakdown_signs_compare_sums_of_powers();
}

#[test]
fn dutch_weight_score_difference_fields_order_by_value() {
    weight::score_difference_fields_order_by_value();
}
