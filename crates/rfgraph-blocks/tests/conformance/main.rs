//! The scheduler conformance suite: the same flowgraph tests on every
//! scheduler. A new scheduler adds one `conformance!` line below.

mod cases;
mod held_items;
mod message_groups;
mod stalls;
mod support;
mod writer_done;

macro_rules! conformance {
    ($module:ident, $scheduler:expr) => {
        mod $module {
            use rfgraph::scheduler::*;
            fn scheduler() -> impl Scheduler + Clone {
                $scheduler
            }
            conformance!(@tests
                sequence_through_chain, fan_out_delivers_to_every_reader,
                copy_rand_stages_keep_order, head_finishes_early_and_detaches,
                head_on_one_branch_of_a_fan_out, thousand_block_flowgraph,
                message_burst_through_forwarder_grid, message_cycle_ends,
                tags_arrive_at_their_indices, tags_scale_through_rate_changes,
                failing_block_names_itself, panicking_block_names_itself,
                failure_in_message_handler_stops_the_run,
                type_mismatch_is_rejected_at_connect, unconnected_port_is_rejected,
                stream_cycle_is_rejected, zero_tag_rate_is_rejected, external_call_gets_a_reply,
                message_only_graph_runs_until_stopped, a_stop_ends_a_busy_stream_graph,
                statistics_count_items,
                decimator_remainder_does_not_hang,
                cascaded_remainders_after_a_fan_out_do_not_hang,
                throttle_limits_rate_without_hanging,
                blocking_block_gets_its_own_thread, fan_out_and_fan_in_across_cores,
                items_produced_by_a_finishing_handler_arrive,
                stateless_chain_keeps_order_and_tags, stateless_chain_fans_out_to_a_head,
                panicking_stateless_block_names_itself,
                a_member_waiting_on_a_timer_keeps_its_group_alive,
                a_member_with_work_in_flight_keeps_its_group_alive,
                messages_posted_from_work_arrive,
                a_member_writes_all_the_items_its_messages_ask_for,
                members_writing_into_one_block_do_not_wait_for_each_other,
                items_held_for_a_timer_arrive, items_held_in_flight_arrive,
                items_held_while_the_output_lacks_room_arrive,
                items_held_in_flight_until_the_output_has_room_arrive,
                a_map_inside_an_in_place_run_ends_while_the_ring_is_full,
                a_rate_mismatched_diamond_ends,
                a_finite_buffer_diamond_is_reported_as_a_stall,
                a_stuck_diamond_is_found_while_a_timer_branch_runs,
                the_same_diamond_with_enough_buffer_finishes,
                blocks_waiting_for_the_outside_are_not_a_stall,
                wait_timeout_stops_a_run_that_does_not_end
            );
        }
    };
    (@tests $($case:ident),* $(,)?) => {
        $(
            #[test]
            fn $case() {
                crate::cases::$case(scheduler());
            }
        )*
    };
}

conformance!(tpb, Tpb::new());
conformance!(single, Single::new());
conformance!(pool, Pool::new());
conformance!(pool_one_worker, Pool::new().workers(1));
conformance!(chain, Chain::new());
conformance!(chain_one_core, Chain::new().workers(1));
conformance!(chain_small_buffers, Chain::new().buffer_bytes(4096));
