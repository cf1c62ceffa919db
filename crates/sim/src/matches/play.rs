//! A match, phase by phase (200.1): each phase a function over the state
//! that carries from one phase to the next, in the rule book's order.

use super::bots::{Claim, Reason};
use super::shop::OfferProbe;
use super::*;

/// Plays match `index` of the suite against `pool`.
pub fn play(ctx: &MatchCtx, engine: &mut Engine, index: u64, pool: &GhostPool) -> MatchResult {
    let mut m = InPlay::new(ctx, index).seat();
    let rounds = ctx.rules.round.rounds.clamp(1, 64) as u8;
    for round in 1..=rounds {
        m.shop_one(ctx, engine, round);
        let draft = m.boss_draft(ctx, engine, round);
        let natural = m.boss_combat(ctx, engine, round, &draft);
        let team_won = m.rescue(ctx, engine, round, &draft, &natural);
        m.boss_reward(ctx, round, &draft, team_won);
        m.shop_two(ctx, engine, round);
        let ghosts = pool.round(round);
        let sources = m.nemesis_draft(ctx, engine, round, ghosts);
        let (fought, all_won) = m.nemesis_combat(ctx, engine, round, ghosts, &sources);
        // 200.1i: round 10 ends the match instead of the reward.
        if round < rounds {
            m.nemesis_reward(ctx, round, fought > 0 && all_won);
        }
    }
    m.finish()
}

/// A boss draft's offer while seats claim from it (200.1c).
struct OpenDraft<'d> {
    round: u8,
    index: u64,
    offered: &'d [usize],
    boards: &'d [Carried],
}

impl OpenDraft<'_> {
    /// Seat `p` claims one of the `open` options, which leaves them;
    /// returns the option claimed, logged.
    fn claim(
        &self,
        ctx: &MatchCtx,
        engine: &mut Engine,
        p: &mut Player,
        open: &mut Vec<usize>,
        log: &mut Vec<Event>,
    ) -> usize {
        let choices: Vec<&Carried> = open.iter().map(|&k| &self.boards[k]).collect();
        let (choice, reason) = p.policy.bot().claim(ctx, engine, p, self.round, self.index, &choices);
        let pick = open.remove(choice.min(open.len() - 1));
        log.push(Event::BossClaimed {
            round: self.round,
            seat: p.seat,
            boss: ctx.suite.bosses[self.offered[pick]].name.clone(),
            reason,
        });
        pick
    }
}

/// What a match carries from phase to phase.
struct InPlay {
    index: u64,
    players: Vec<Player>,
    log: Vec<Event>,
    /// The boss and nemesis drafts' stream.
    draft: FightRng,
    /// Units sold this match, offered back in Shop 2 (200.1f).
    buyback: Vec<Sold>,
    /// Each round's committed boards (200.1g).
    committed: Vec<(u8, Ghost)>,
    boss_wins: u32,
    nemesis_wins: u32,
    last_boss_won: bool,
    /// Each seat's probed offer, waiting for the next fight.
    offer_probes: Vec<Option<OfferProbe>>,
    /// Each seat's boss reward this round, waiting for the nemesis fight.
    reward_probes: Vec<Option<RewardProbe>>,
}

/// A boss reward's signature as a probe sees it (docs/matches.md,
/// "Probes"): what to take away to have the board without it.
enum RewardProbe {
    /// The last Forge Core won, by name (200.3d).
    ForgeCore(String),
    /// A resonance claimed (its id), and the slot as it was before.
    Resonance(String, ResonanceSlot),
}

impl RewardProbe {
    fn item(&self) -> &str {
        match self {
            RewardProbe::ForgeCore(name) | RewardProbe::Resonance(name, _) => name,
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            RewardProbe::ForgeCore(_) => "forge_core",
            RewardProbe::Resonance(..) => "resonance",
        }
    }

    /// `p`'s board as it fights, less this reward.
    fn without(&self, p: &Player) -> Carried {
        let mut before = p.clone();
        match self {
            RewardProbe::ForgeCore(name) => {
                if let Some(i) = before.forge_cores.iter().rposition(|c| &c.name == name) {
                    before.forge_cores.remove(i);
                }
            }
            RewardProbe::Resonance(_, slot) => before.resonance = *slot,
        }
        Carried::of(&before)
    }
}

/// The boss draft's outcome: the options offered, as fighters, and each
/// seat's pick among them.
struct BossDraft {
    offered: Vec<usize>,
    boards: Vec<Carried>,
    claimed: Vec<usize>,
}

impl InPlay {
    fn new(ctx: &MatchCtx, index: u64) -> InPlay {
        InPlay {
            index,
            players: (0..ctx.suite.players).map(|s| Player::new(ctx, index, s)).collect(),
            log: Vec::new(),
            draft: FightRng::for_fight(ctx.suite.master_seed ^ DRAFT_KEY, index),
            buyback: Vec::new(),
            committed: Vec::new(),
            boss_wins: 0,
            nemesis_wins: 0,
            last_boss_won: false,
            offer_probes: (0..ctx.suite.players).map(|_| None).collect(),
            reward_probes: (0..ctx.suite.players).map(|_| None).collect(),
        }
    }

    /// Every seat's wallet as the match opens, logged.
    fn seat(mut self) -> InPlay {
        for p in &self.players {
            self.log.push(Event::Seated {
                seat: p.seat,
                gold: p.wallet.gold,
                dividend: p.wallet.dividend,
                profit: p.wallet.profit,
            });
        }
        self
    }

    fn phase(&mut self, round: u8, phase: Phase) {
        self.log.push(Event::Phase { round, phase });
    }

    /// 200.1b: Shop 1, the General Store.
    fn shop_one(&mut self, ctx: &MatchCtx, engine: &mut Engine, round: u8) {
        self.phase(round, Phase::Shop1);
        for (seat, p) in self.players.iter_mut().enumerate() {
            let mut sold = Vec::new();
            let v = Visit {
                round,
                destination: Destination::Store,
                buyback: None,
                sold: &mut sold,
            };
            self.offer_probes[seat] = shop::visit(ctx, engine, p, v, self.index, &mut self.log);
            self.buyback.extend(sold);
        }
    }

    /// 200.1c: the boss draft; each player claims a distinct option.
    fn boss_draft(&mut self, ctx: &MatchCtx, engine: &mut Engine, round: u8) -> BossDraft {
        self.phase(round, Phase::BossDraft);
        let (suite, r, n) = (ctx.suite, &ctx.rules.round, self.players.len());
        let want = if n == 1 {
            r.solo_boss_options
        } else {
            (n as i32 + r.party_extra_boss_options).min(r.max_boss_options)
        };
        let offered = draw_distinct(&mut self.draft, suite.bosses.len(), want.max(0) as usize);
        self.log.push(Event::BossOffered {
            round,
            options: offered.iter().map(|&k| suite.bosses[k].name.clone()).collect(),
        });
        let boards: Vec<Carried> = offered
            .iter()
            .map(|&k| boss_entrant(ctx, &suite.bosses[k], round))
            .collect();
        let mut open: Vec<usize> = (0..offered.len()).collect();
        let mut claimed = vec![0usize; n];
        let draft = OpenDraft {
            round,
            index: self.index,
            offered: &offered,
            boards: &boards,
        };
        for (seat, p) in self.players.iter_mut().enumerate() {
            claimed[seat] = draft.claim(ctx, engine, p, &mut open, &mut self.log);
        }
        // 200.1c: a player may cancel its claim before combat starts. Every
        // seat sees every claim and says whether it cancels; the cancelled
        // options open again and their seats claim anew, weakest board
        // first, so a party can hand its easier bosses to its weaker boards.
        let claims: Vec<Claim> = self
            .players
            .iter()
            .zip(&claimed)
            .map(|(p, &k)| Claim {
                board: ctx.values.board(&p.board(String::new())),
                boss: ctx.values.board(&boards[k].board),
            })
            .collect();
        let mut cancelled: Vec<usize> = (0..n)
            .filter(|&seat| self.players[seat].policy.bot().cancels_claim(ctx, seat, &claims))
            .collect();
        for &seat in &cancelled {
            open.push(claimed[seat]);
            self.log.push(Event::BossCancelled {
                round,
                seat: seat as u8,
                boss: suite.bosses[offered[claimed[seat]]].name.clone(),
                reason: Reason::Swap,
            });
        }
        open.sort_unstable();
        cancelled.sort_by_key(|&seat| (claims[seat].board, seat));
        for seat in cancelled {
            claimed[seat] = draft.claim(ctx, engine, &mut self.players[seat], &mut open, &mut self.log);
        }
        BossDraft {
            offered,
            boards,
            claimed,
        }
    }

    /// 200.1d: boss combat, each player against the boss and minion they
    /// drafted; the fights are independent (one batch).
    fn boss_combat(&mut self, ctx: &MatchCtx, engine: &mut Engine, round: u8, draft: &BossDraft) -> Vec<Fought> {
        self.phase(round, Phase::BossCombat);
        let mut natural: Vec<Fought> = Vec::with_capacity(self.players.len());
        for (seat, p) in self.players.iter_mut().enumerate() {
            let me = Carried::of(p);
            let s = stream(self.index, round, Stage::Boss, seat as u32);
            let boss = &draft.boards[draft.claimed[seat]];
            let f = fight(
                ctx,
                engine,
                round,
                &me,
                boss,
                FightRng::for_fight(ctx.suite.master_seed, s),
            );
            keep_progress(p, &f);
            log_fight(
                &mut self.log,
                round,
                seat as u8,
                Stage::Boss,
                &boss.board.name,
                None,
                s,
                &f,
                0,
                &[],
                FoughtBoard::of(ctx, &me.board),
            );
            if let Some(probe) = self.offer_probes[seat].take() {
                let with = probe_fight(ctx, engine, round, boss, s, &probe.with);
                let without = probe_fight(ctx, engine, round, boss, s, &probe.without);
                log_offer_probe(ctx, &mut self.log, round, seat, Stage::Boss, &probe, with, without);
            }
            natural.push(f);
        }
        natural
    }

    /// 200.2: one rescue batch when the outcomes are mixed; whether the
    /// team won the boss stage (200.2d: every required fight cleared is a
    /// win for everyone).
    fn rescue(
        &mut self,
        ctx: &MatchCtx,
        engine: &mut Engine,
        round: u8,
        draft: &BossDraft,
        natural: &[Fought],
    ) -> bool {
        let won: Vec<bool> = natural.iter().map(|f| f.outcome.winner == Some(Side::Left)).collect();
        let mut cleared = won.clone();
        for chain in rescue::assign(&won) {
            self.log.push(Event::RescueChain {
                round,
                rescuer: chain.rescuer,
                fallen: chain.fallen.clone(),
            });
            let rescuer = usize::from(chain.rescuer);
            let mut state = natural[rescuer].end[0].clone();
            for (k, &fallen) in chain.fallen.iter().enumerate() {
                let p = &mut self.players[rescuer];
                // 200.2c: the ledger carries over, as the wallet holds it.
                state.set_scrip(p.wallet.dividend, p.wallet.profit);
                // 200.2c: the enemy exactly as it stood when the teammate fell.
                let enemy = &natural[usize::from(fallen)].end[1];
                let s = stream(self.index, round, Stage::Rescue, (rescuer as u32) * 8 + k as u32);
                let f = rescue_fight(
                    ctx,
                    engine,
                    round,
                    &state,
                    enemy,
                    FightRng::for_fight(ctx.suite.master_seed, s),
                );
                keep_progress(p, &f);
                log_fight(
                    &mut self.log,
                    round,
                    chain.rescuer,
                    Stage::Rescue,
                    &draft.boards[draft.claimed[usize::from(fallen)]].board.name,
                    Some(fallen),
                    s,
                    &f,
                    state.standing() as u32,
                    &[],
                    FoughtBoard::of(ctx, &p.board(String::new())),
                );
                if f.outcome.winner != Some(Side::Left) {
                    break;
                }
                cleared[usize::from(fallen)] = true;
                state = f.end[0].clone();
            }
        }
        let team_won = cleared.iter().all(|&c| c);
        self.log.push(Event::TeamResult {
            round,
            stage: Stage::Boss,
            won: team_won,
        });
        if team_won {
            self.boss_wins += 1;
        }
        self.last_boss_won = team_won;
        team_won
    }

    /// 200.1e: the boss reward.
    fn boss_reward(&mut self, ctx: &MatchCtx, round: u8, draft: &BossDraft, team_won: bool) {
        self.phase(round, Phase::BossReward);
        let r = &ctx.rules.round;
        for (seat, p) in self.players.iter_mut().enumerate() {
            let mut gold = r.boss_gold;
            let probes = &mut self.reward_probes;
            let signature = team_won.then(|| {
                let option = &ctx.suite.bosses[draft.offered[draft.claimed[seat]]];
                let mut probe = |reward: RewardProbe| {
                    if ctx.suite.probe_percent > 0 {
                        probes[seat] = Some(reward);
                    }
                };
                match &option.signature {
                    Signature::Forge(core) => {
                        p.forge_cores.push(core.clone());
                        probe(RewardProbe::ForgeCore(core.name.clone()));
                        core.name.clone()
                    }
                    Signature::Resonance(id) => {
                        let key = ctx.catalog.resonance(*id).key.clone();
                        probe(RewardProbe::Resonance(key.clone(), p.resonance));
                        p.resonance.claim(*id);
                        key
                    }
                    Signature::Gold(g) => {
                        gold += g;
                        format!("{g} gold")
                    }
                }
            });
            // The event's Gold is all the reward pays, a Gold signature too.
            p.wallet.gold += gold;
            self.log.push(Event::Reward {
                round,
                seat: seat as u8,
                stage: Stage::Boss,
                gold,
                xp: r.boss_xp,
                signature,
            });
            shop::gain_xp(ctx, p, r.boss_xp, round, &mut self.log);
        }
    }

    /// 200.1f: Shop 2, at a destination drawn by weight, with buyback.
    fn shop_two(&mut self, ctx: &MatchCtx, engine: &mut Engine, round: u8) {
        self.phase(round, Phase::Shop2);
        for (seat, p) in self.players.iter_mut().enumerate() {
            let offered = shop::offer_destinations(ctx, &mut p.rng);
            let (chosen, reason) = p.policy.bot().choose_destination(ctx, p, &offered);
            self.log.push(Event::Destinations {
                round,
                seat: p.seat,
                offered,
                chosen,
                reason,
            });
            let mut sold = Vec::new();
            let v = Visit {
                round,
                destination: chosen,
                buyback: Some(&mut self.buyback),
                sold: &mut sold,
            };
            self.offer_probes[seat] = shop::visit(ctx, engine, p, v, self.index, &mut self.log);
            self.buyback.extend(sold);
        }
    }

    /// 200.1g: committing freezes each board and records the round's
    /// contribution; then the nemesis draft. Each seat's ghost among
    /// `ghosts` (the pool's boards of this round), `None` for a bye.
    fn nemesis_draft(
        &mut self,
        ctx: &MatchCtx,
        engine: &mut Engine,
        round: u8,
        ghosts: &[Ghost],
    ) -> Vec<Option<usize>> {
        self.phase(round, Phase::NemesisDraft);
        self.commit(ctx, round);
        let n = self.players.len();
        // Solo: up to two distinct boards offered; a party: one distinct
        // source per player (200.1g). A seat the pool cannot serve has a bye.
        let mut sources: Vec<Option<usize>> = vec![None; n];
        let mut reasons = vec![Reason::Assigned; n];
        if n == 1 {
            let want = ctx.rules.round.solo_nemesis_options.max(0) as usize;
            let offered = draw_distinct(&mut self.draft, ghosts.len(), want);
            if !offered.is_empty() {
                self.log.push(Event::NemesisOffered {
                    round,
                    seat: 0,
                    sources: offered.iter().map(|&k| ghosts[k].label()).collect(),
                });
                let boards: Vec<Carried> = offered.iter().map(|&k| ghost_entrant(&ghosts[k])).collect();
                let refs: Vec<&Carried> = boards.iter().collect();
                let p = &mut self.players[0];
                let (choice, reason) = p.policy.bot().claim(ctx, engine, p, round, self.index, &refs);
                sources[0] = Some(offered[choice.min(offered.len() - 1)]);
                reasons[0] = reason;
            }
        } else {
            let drawn = draw_distinct(&mut self.draft, ghosts.len(), n);
            for (seat, &k) in drawn.iter().enumerate() {
                self.log.push(Event::NemesisOffered {
                    round,
                    seat: seat as u8,
                    sources: vec![ghosts[k].label()],
                });
                sources[seat] = Some(k);
            }
        }
        for (seat, s) in sources.iter().enumerate() {
            match s {
                Some(k) => self.log.push(Event::NemesisClaimed {
                    round,
                    seat: seat as u8,
                    source: ghosts[*k].label(),
                    reason: reasons[seat],
                }),
                None => self.log.push(Event::Bye {
                    round,
                    seat: seat as u8,
                    why: if ghosts.is_empty() {
                        "the ghost pool holds no board of this round"
                    } else {
                        "the ghost pool holds fewer distinct boards than the party"
                    },
                }),
            }
        }
        sources
    }

    /// 200.1g: each board committed as it stands, logged and kept.
    fn commit(&mut self, ctx: &MatchCtx, round: u8) {
        for p in &self.players {
            let board = p.board(format!("match {} seat {} round {round}", self.index, p.seat));
            self.log.push(Event::Committed {
                round,
                seat: p.seat,
                units: board
                    .units
                    .iter()
                    .map(|u| format!("{} t{} @{},{}", ctx.catalog.card(u.card).key, u.tier, u.column, u.row))
                    .collect(),
                runes: board
                    .runes
                    .iter()
                    .map(|u| format!("{} t{}", ctx.catalog.rune(u.rune).key, u.tier))
                    .collect(),
                resonance: board.resonance.map(|id| ctx.catalog.resonance(id).key.clone()),
                forge_cores: p.forge_cores.iter().map(|c| c.name.clone()).collect(),
                dividend: p.wallet.dividend,
                profit: p.wallet.profit,
                quests: p.units.iter().map(|o| o.kept.quest).collect(),
                counters: p.units.iter().map(|o| o.kept.counter).collect(),
            });
            self.committed.push((
                round,
                Ghost {
                    source_match: self.index,
                    seat: p.seat,
                    board,
                    dividend: p.wallet.dividend,
                    profit: p.wallet.profit,
                    kept: p.kept(),
                    forge_cores: p.forge_cores.iter().map(|c| c.name.clone()).collect(),
                },
            ));
        }
    }

    /// 200.1h: nemesis combat against the claimed ghost, through the same
    /// fight code as the boss fight; a bye is no fight. The fights fought,
    /// and whether every one was won.
    fn nemesis_combat(
        &mut self,
        ctx: &MatchCtx,
        engine: &mut Engine,
        round: u8,
        ghosts: &[Ghost],
        sources: &[Option<usize>],
    ) -> (u32, bool) {
        self.phase(round, Phase::NemesisCombat);
        let (mut fought, mut all_won) = (0, true);
        for (seat, p) in self.players.iter_mut().enumerate() {
            let Some(k) = sources[seat] else { continue };
            let ghost = ghost_entrant(&ghosts[k]);
            let me = Carried::of(p);
            // The board as it fights less this round's reward, taken before
            // the fight moves the player's kept progress on.
            let less_reward = self.reward_probes[seat].take().map(|reward| {
                let without = reward.without(p);
                (reward, without)
            });
            let s = stream(self.index, round, Stage::Nemesis, seat as u32);
            let f = fight(
                ctx,
                engine,
                round,
                &me,
                &ghost,
                FightRng::for_fight(ctx.suite.master_seed, s),
            );
            keep_progress(p, &f);
            log_fight(
                &mut self.log,
                round,
                seat as u8,
                Stage::Nemesis,
                &ghosts[k].label(),
                None,
                s,
                &f,
                0,
                &ghosts[k].forge_cores,
                FoughtBoard::of(ctx, &me.board),
            );
            if let Some(probe) = self.offer_probes[seat].take() {
                let with = probe_fight(ctx, engine, round, &ghost, s, &probe.with);
                let without = probe_fight(ctx, engine, round, &ghost, s, &probe.without);
                log_offer_probe(ctx, &mut self.log, round, seat, Stage::Nemesis, &probe, with, without);
            }
            if let Some((reward, without)) = less_reward {
                // The real fight is the fight with the reward.
                let without = probe_fight(ctx, engine, round, &ghost, s, &without);
                self.log.push(Event::Probe {
                    round,
                    seat: seat as u8,
                    stage: Stage::Nemesis,
                    source: "reward",
                    item: reward.item().to_string(),
                    kind: reward.kind(),
                    tier: 1,
                    bought: true,
                    with_it: winner_name(&f.outcome),
                    without_it: without,
                });
            }
            fought += 1;
            if f.outcome.winner == Some(Side::Left) {
                self.nemesis_wins += 1;
            } else {
                all_won = false;
            }
        }
        // A bye fights nothing: its seat's probes measure nothing.
        self.offer_probes.iter_mut().for_each(|p| *p = None);
        self.reward_probes.iter_mut().for_each(|p| *p = None);
        (fought, all_won)
    }

    /// 200.1i: a non-terminal round awards team-shared win or loss Gold
    /// and XP.
    fn nemesis_reward(&mut self, ctx: &MatchCtx, round: u8, team_won: bool) {
        self.phase(round, Phase::NemesisReward);
        let r = &ctx.rules.round;
        self.log.push(Event::TeamResult {
            round,
            stage: Stage::Nemesis,
            won: team_won,
        });
        let gold = if team_won {
            r.nemesis_win_gold
        } else {
            r.nemesis_loss_gold
        };
        for p in &mut self.players {
            p.wallet.gold += gold;
            self.log.push(Event::Reward {
                round,
                seat: p.seat,
                stage: Stage::Nemesis,
                gold,
                xp: r.nemesis_xp,
                signature: None,
            });
            shop::gain_xp(ctx, p, r.nemesis_xp, round, &mut self.log);
        }
    }

    fn finish(mut self) -> MatchResult {
        self.log.push(Event::MatchEnd {
            won: self.last_boss_won,
            boss_wins: self.boss_wins,
            nemesis_wins: self.nemesis_wins,
        });
        MatchResult {
            index: self.index,
            players: self.players.len() as u8,
            events: self.log,
            committed: self.committed,
            won: self.last_boss_won,
            boss_wins: self.boss_wins,
            nemesis_wins: self.nemesis_wins,
            final_boards: self
                .players
                .iter()
                .map(|p| p.board(format!("seat {}", p.seat)))
                .collect(),
            final_wallets: self.players.iter().map(|p| p.wallet).collect(),
            final_levels: self.players.iter().map(|p| p.level).collect(),
        }
    }
}

/// Logs an offer probe's two fights.
#[allow(clippy::too_many_arguments)]
fn log_offer_probe(
    ctx: &MatchCtx,
    log: &mut Vec<Event>,
    round: u8,
    seat: usize,
    stage: Stage,
    probe: &OfferProbe,
    with: &'static str,
    without: &'static str,
) {
    let (item, kind, tier) = probe.item.logged(ctx);
    log.push(Event::Probe {
        round,
        seat: seat as u8,
        stage,
        source: "offer",
        item,
        kind,
        tier,
        bought: probe.bought,
        with_it: with,
        without_it: without,
    });
}
