//! One effect of a Riftbound card file — a spell's, an ability's or a
//! trigger's — lowered to the kernel's [`Effect`]: exactly one action,
//! its target, and what a trigger waits for, every problem reported to
//! `fail` with the key under the effect it is about (`None`: the effect's
//! own key).

use super::*;

/// The effect `d` (a trigger's when `trigger`), or none when it has no
/// one action; `fail` hears every problem.
pub(super) fn lower(
    catalog: &Catalog,
    d: &EffectDef,
    trigger: bool,
    fail: &mut dyn FnMut(Option<&str>, String),
) -> Option<(Option<When>, Effect)> {
    let lasts = match d.lasts {
        None | Some(LastsDef::Turn) => Lasts::Turn,
        Some(LastsDef::Combat) => Lasts::Combat,
    };
    let mut actions = Vec::new();
    if let Some(n) = d.damage {
        if n < 0 {
            fail(Some("damage"), "damage is at least 0".to_string());
        }
        actions.push(Action::Damage(n.max(0)));
    }
    if let Some(n) = d.damage_split {
        if n < 0 || d.target != Some(TargetDef::EachEnemy) {
            fail(
                Some("damage_split"),
                "`damage_split` is at least 0 and splits among `each_enemy`".to_string(),
            );
        }
        actions.push(Action::DamageSplit(n.max(0)));
    }
    if let Some(amount) = d.might {
        actions.push(Action::Might {
            amount,
            minimum: d.minimum,
            lasts,
        });
    }
    if let Some(max_might) = d.return_to_hand {
        actions.push(Action::ReturnToHand { max_might });
    }
    if d.recall {
        actions.push(Action::Recall {
            heal: d.heal,
            exhaust: d.exhaust,
        });
    }
    if let Some(t) = &d.play_token {
        match catalog.index(t).filter(|&i| catalog.card(i).token) {
            Some(token) => actions.push(Action::PlayToken {
                token,
                at_base: d.at_base,
            }),
            None => fail(
                Some("play_token"),
                format!(
                    "`{t}` is no token card declared before this one: declare the token (`token = true`) above the card that plays it"
                ),
            ),
        }
    }
    // The actions a flag or a count names.
    let named = [
        (d.damage_my_might, Action::DamageMyMight),
        (d.buff, Action::Buff),
        (d.stun, Action::Stun),
        (d.ready, Action::Ready),
        (d.move_to_base, Action::MoveToBase),
        (d.move_here, Action::MoveHere),
        (d.kill, Action::Kill),
        (d.activate_conquer, Action::ActivateConquer),
        (
            d.play_from_deck,
            Action::PlayFromDeck {
                look: d.look.unwrap_or(1).clamp(1, i32::from(u8::MAX)) as u8,
            },
        ),
        (
            d.spend_buff_draw.is_some(),
            Action::SpendBuffToDraw(d.spend_buff_draw.unwrap_or(0).max(0)),
        ),
        (d.score.is_some(), Action::Score(d.score.unwrap_or(0).max(0))),
        (d.draw.is_some(), Action::Draw(d.draw.unwrap_or(0).max(0))),
        (
            d.discard.is_some(),
            Action::Discard(d.discard.unwrap_or(0).clamp(0, i32::from(u8::MAX)) as u8),
        ),
    ];
    actions.extend(named.into_iter().filter(|(on, _)| *on).map(|(_, a)| a));
    if actions.len() != 1 {
        fail(
            None,
            format!(
                "an effect does exactly one of `damage`, `damage_split`, `damage_my_might`, `might`, `buff`, `stun`, `ready`, `return_to_hand`, `recall`, `move_to_base`, `move_here`, `kill`, `activate_conquer`, `spend_buff_draw`, `score`, `draw`, `discard`, `play_from_deck`, `play_token`; this one does {}",
                actions.len()
            ),
        );
    }
    if d.score.is_some_and(|n| n < 0) || d.draw.is_some_and(|n| n < 0) || d.spend_buff_draw.is_some_and(|n| n < 0) {
        fail(None, "`score`, `draw` and `spend_buff_draw` are at least 0".into());
    }
    if d.discard.is_some_and(|n| !(1..=i32::from(u8::MAX)).contains(&n)) {
        fail(None, format!("`discard` is from 1 to {}", u8::MAX));
    }
    if d.at_base && d.play_token.is_none() {
        fail(None, "`at_base` goes with `play_token`".into());
    }
    if d.move_here && !d.anywhere {
        fail(
            None,
            "`move_here` moves a unit from its base: it needs `anywhere = true`".into(),
        );
    }
    if d.look.is_some() && !d.play_from_deck {
        fail(None, "`look` goes with `play_from_deck`".into());
    }
    if d.look
        .is_some_and(|n| !(1..=gridsim_riftbound::showdown::MAX_DECK as i32).contains(&n))
    {
        fail(
            None,
            format!(
                "`look` is from 1 to {}, the most cards of a deck a showdown reads",
                gridsim_riftbound::showdown::MAX_DECK
            ),
        );
    }
    let players = actions.first().is_some_and(|a| a.is_players());
    match (players, d.target) {
        (true, Some(_)) => fail(
            None,
            "`score`, `draw`, `discard`, `play_from_deck` and `play_token` are its player's: no `target`".into(),
        ),
        (false, None) => fail(None, "an effect on units names its `target`".into()),
        _ => {}
    }
    if d.might.is_none() && (d.minimum.is_some() || d.lasts.is_some()) {
        fail(None, "`minimum` and `lasts` go with `might`".into());
    }
    if !d.recall && (d.heal || d.exhaust) {
        fail(None, "`heal` and `exhaust` go with `recall`".into());
    }
    let when = d.when.map(|w| match w {
        WhenDef::Attack => When::Attack,
        WhenDef::Defend => When::Defend,
        WhenDef::EnemyAttacks => When::EnemyAttacks,
        WhenDef::FriendlyDefends => When::FriendlyDefends,
        WhenDef::Move => When::Move,
        WhenDef::Death => When::Death,
        WhenDef::Play => When::Play,
        WhenDef::Conquer => When::Conquer,
        WhenDef::EnemyMovesHere => When::EnemyMovesHere,
        WhenDef::DefendAlone => When::DefendAlone,
        WhenDef::Hold => When::Hold,
        WhenDef::Discard => When::Discard,
        WhenDef::Add => When::Add,
        WhenDef::SecondCard => When::SecondCard,
        WhenDef::FriendlyDies => When::FriendlyDies,
    });
    if trigger && when.is_none() {
        fail(None, "a trigger says `when` it triggers: attack, defend, enemy_attacks, friendly_defends, move, death, play, conquer, enemy_moves_here, defend_alone, hold, discard, add, second_card, friendly_dies"
                .into(),
        );
    }
    if !trigger && when.is_some() {
        fail(None, "a spell's effect has no `when`".into());
    }
    let target = match d.target.unwrap_or(TargetDef::Me) {
        TargetDef::Enemy => Target::Enemy,
        TargetDef::Friendly => Target::Friendly,
        TargetDef::OtherFriendly => Target::OtherFriendly,
        TargetDef::Any => Target::Any,
        TargetDef::EachEnemy => Target::EachEnemy,
        TargetDef::Me => Target::Me,
        TargetDef::Subject => Target::Subject,
    };
    if !trigger && !players && matches!(target, Target::Me | Target::Subject) {
        fail(
            None,
            "a spell has no `me` or `subject`: it targets enemy, friendly, any or each_enemy".into(),
        );
    }
    if target == Target::Subject
        && !matches!(
            when,
            Some(When::EnemyAttacks | When::FriendlyDefends | When::EnemyMovesHere | When::FriendlyDies)
        )
    {
        fail(None, "`subject` is the unit of an `enemy_attacks`, `friendly_defends`, `enemy_moves_here` or `friendly_dies` trigger"
                .into(),
        );
    }
    // A game resolves these for a unit away from the showdown's
    // battlefield too (docs/riftbound-reconstruction.md, "Triggers
    // away from a showdown"): only what it can do there.
    if matches!(when, Some(When::SecondCard | When::FriendlyDies | When::Discard)) {
        let away = match actions.first() {
            Some(
                Action::Might {
                    lasts: Lasts::Turn,
                    minimum: None,
                    ..
                }
                | Action::Ready
                | Action::Buff,
            ) => target == Target::Me,
            Some(Action::PlayToken { at_base, .. }) => *at_base,
            _ => false,
        };
        if !away {
            fail(None, "a `second_card`, `friendly_dies` or `discard` trigger gives `me` Might this turn with no `minimum`, readies or buffs `me`, or plays a token `at_base`".into());
        }
    }
    if !trigger && d.may {
        fail(
            None,
            "a spell's effects are not optional: `may` goes with a trigger".into(),
        );
    }
    let action = *actions.first()?;
    Some((
        when,
        Effect {
            target,
            action,
            optional: d.may,
            anywhere: d.anywhere,
            legion: d.legion,
        },
    ))
}
