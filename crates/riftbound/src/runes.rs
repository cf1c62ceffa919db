//! Domains, costs and a player's runes: what a card costs and how a player
//! pays it (Core Rules 130, 133, 154–160, 353). A whole game pays every
//! play from its runes; a showdown of a suite pays nothing, since its
//! lanes have no runes.

/// The six domains (Core Rules 133.2), in the rules' order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Domain {
    Fury,
    Calm,
    Mind,
    Body,
    Chaos,
    Order,
}

impl Domain {
    pub const ALL: [Domain; DOMAINS] = [
        Domain::Fury,
        Domain::Calm,
        Domain::Mind,
        Domain::Body,
        Domain::Chaos,
        Domain::Order,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Domain::Fury => "fury",
            Domain::Calm => "calm",
            Domain::Mind => "mind",
            Domain::Body => "body",
            Domain::Chaos => "chaos",
            Domain::Order => "order",
        }
    }

    /// Its bit in a [`Domains`] set.
    pub fn bit(self) -> Domains {
        1 << (self as u8)
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// How many domains there are.
pub const DOMAINS: usize = 6;

/// A set of domains, one bit each (a card's, a Legend's identity: 103.1).
pub type Domains = u8;

/// A card's cost: Energy (the numeral) and Power, one of a domain per
/// symbol, [A] one of any domain (130.2, 133.2.e).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cost {
    pub energy: u8,
    pub power: [u8; DOMAINS],
    pub any_power: u8,
}

impl Cost {
    /// This cost with `more` added to it (an additional cost, 353.3).
    pub fn plus(&self, more: &Cost) -> Cost {
        let mut power = self.power;
        for (p, m) in power.iter_mut().zip(more.power) {
            *p = p.saturating_add(m);
        }
        Cost {
            energy: self.energy.saturating_add(more.energy),
            power,
            any_power: self.any_power.saturating_add(more.any_power),
        }
    }

    /// Power of every kind, counted together.
    pub fn total_power(&self) -> u32 {
        self.power.iter().map(|&p| u32::from(p)).sum::<u32>() + u32::from(self.any_power)
    }
}

/// One player's runes on the board, by domain: ready and exhausted. A
/// basic rune adds 1 Energy by being exhausted and 1 Power of its domain
/// by being recycled to the rune deck's bottom (157.2); a rune exhausted
/// for Energy may still be recycled for Power in the same payment, so
/// the two never compete for one rune (353.5, 354.1.a).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Runes {
    pub ready: [u8; DOMAINS],
    pub exhausted: [u8; DOMAINS],
    /// Energy in the rune pool, added by an ability ([Add]) and spent
    /// before it empties (160; a game empties it at the end of the turn).
    pub pool: u8,
}

/// What a payment did: the runes recycled, by domain, which go to the
/// bottom of their owner's rune deck (403.1.b).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Paid {
    pub recycled: [u8; DOMAINS],
}

impl Runes {
    pub fn total(&self) -> u32 {
        (0..DOMAINS)
            .map(|d| u32::from(self.ready[d]) + u32::from(self.exhausted[d]))
            .sum()
    }

    pub fn ready_total(&self) -> u32 {
        self.ready.iter().map(|&r| u32::from(r)).sum()
    }

    fn of(&self, d: usize) -> u32 {
        u32::from(self.ready[d]) + u32::from(self.exhausted[d])
    }

    /// Whether `cost` can be paid: enough ready runes to exhaust for the
    /// Energy, enough runes of each domain to recycle for its Power, and
    /// enough left over for the Power of any domain.
    pub fn can_pay(&self, cost: &Cost) -> bool {
        if self.ready_total() + u32::from(self.pool) < u32::from(cost.energy) {
            return false;
        }
        let mut spare = 0;
        for d in 0..DOMAINS {
            let have = self.of(d);
            let need = u32::from(cost.power[d]);
            if have < need {
                return false;
            }
            spare += have - need;
        }
        spare >= u32::from(cost.any_power)
    }

    /// Pays `cost`, which [`Runes::can_pay`] allows. The Energy is paid
    /// first by exhausting runes that the Power will recycle (so a rune
    /// gives both: 354.1.a), then from the pool, then runes of the
    /// domains with the most ready; the Power recycles exhausted runes before ready ones. Any
    /// Power comes from the domain with the most runes left.
    pub fn pay(&mut self, cost: &Cost) -> Paid {
        debug_assert!(self.can_pay(cost));
        let mut recycle = cost.power;
        for _ in 0..cost.any_power {
            let d = (0..DOMAINS)
                .filter(|&d| self.of(d) > u32::from(recycle[d]))
                .max_by_key(|&d| (self.of(d) - u32::from(recycle[d]), std::cmp::Reverse(d)));
            if let Some(d) = d {
                recycle[d] += 1;
            }
        }
        let mut energy = cost.energy;
        // Exhaust the runes to be recycled first.
        for (d, &want) in recycle.iter().enumerate() {
            let room = want.saturating_sub(self.exhausted[d]).min(self.ready[d]);
            let n = room.min(energy);
            self.ready[d] -= n;
            self.exhausted[d] += n;
            energy -= n;
        }
        // Then the pool, which empties anyway; a ready rune kept is worth
        // more.
        let from_pool = energy.min(self.pool);
        self.pool -= from_pool;
        energy -= from_pool;
        while energy > 0 {
            let Some(d) = (0..DOMAINS)
                .filter(|&d| self.ready[d] > 0)
                .max_by_key(|&d| (self.ready[d], std::cmp::Reverse(d)))
            else {
                break;
            };
            self.ready[d] -= 1;
            self.exhausted[d] += 1;
            energy -= 1;
        }
        let mut paid = Paid::default();
        for (d, &n) in recycle.iter().enumerate() {
            let from_exhausted = n.min(self.exhausted[d]);
            self.exhausted[d] -= from_exhausted;
            let from_ready = (n - from_exhausted).min(self.ready[d]);
            self.ready[d] -= from_ready;
            paid.recycled[d] = from_exhausted + from_ready;
        }
        paid
    }

    /// Readies every rune (the Awaken Phase, 315.1.a).
    pub fn ready_all(&mut self) {
        for d in 0..DOMAINS {
            self.ready[d] += self.exhausted[d];
            self.exhausted[d] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runes(ready: [u8; DOMAINS], exhausted: [u8; DOMAINS]) -> Runes {
        Runes {
            ready,
            exhausted,
            pool: 0,
        }
    }

    fn cost(energy: u8, power: [u8; DOMAINS], any_power: u8) -> Cost {
        Cost {
            energy,
            power,
            any_power,
        }
    }

    /// 157.2, 354.1.a: a rune exhausted for Energy can be recycled for
    /// Power in the same payment. The misreading: a rune gives one or the
    /// other, so two Fury runes could not pay 2 Energy and 1 Fury Power.
    #[test]
    fn a_rune_gives_energy_and_then_power() {
        let mut r = runes([2, 0, 0, 0, 0, 0], [0; DOMAINS]);
        let cost = cost(2, [1, 0, 0, 0, 0, 0], 0);
        assert!(r.can_pay(&cost));
        let paid = r.pay(&cost);
        assert_eq!(paid.recycled[0], 1);
        assert_eq!(r, runes([0; DOMAINS], [1, 0, 0, 0, 0, 0]));
    }

    /// 130.2: Power is of its domain; Energy is of none. The misreading: a
    /// Calm rune pays Fury Power.
    #[test]
    fn power_is_of_its_domain() {
        let r = runes([0, 3, 0, 0, 0, 0], [0; DOMAINS]);
        let fury = cost(0, [1, 0, 0, 0, 0, 0], 0);
        assert!(!r.can_pay(&fury));
        let any = cost(1, [0; DOMAINS], 1);
        assert!(r.can_pay(&any));
        let too_much = cost(4, [0; DOMAINS], 0);
        assert!(!r.can_pay(&too_much), "Energy needs ready runes, one each");
    }

    /// 157.2.a: only a ready rune is exhausted for Energy; an exhausted one
    /// is recycled for Power first, keeping ready runes for later plays.
    #[test]
    fn power_recycles_exhausted_runes_first() {
        let mut r = runes([1, 1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]);
        let cost = cost(1, [1, 0, 0, 0, 0, 0], 0);
        let paid = r.pay(&cost);
        assert_eq!(paid.recycled, [1, 0, 0, 0, 0, 0]);
        assert_eq!(r.total(), 2);
        assert!(r.ready_total() == 1, "one ready rune left for the next play: {r:?}");
    }

    /// 157.2.b: Power beyond the Energy is paid by recycling ready runes,
    /// which leave the board. The misreadings: a recycled ready rune kept
    /// (or counted twice), or the recycled runes miscounted.
    #[test]
    fn power_beyond_the_energy_recycles_ready_runes() {
        let mut r = runes([3, 0, 0, 0, 0, 0], [0; DOMAINS]);
        let paid = r.pay(&cost(0, [2, 0, 0, 0, 0, 0], 0));
        assert_eq!(paid.recycled, [2, 0, 0, 0, 0, 0]);
        assert_eq!((r.ready_total(), r.total()), (1, 1));
    }

    /// 160, 353: Energy in the pool pays Energy, after the runes the
    /// Power recycles are exhausted and before any other ready rune. The
    /// misreadings: the pool not counted, counted twice, or spent before
    /// a rune that is recycled anyway (leaving a ready rune idle and the
    /// pool to empty).
    #[test]
    fn the_pool_pays_energy_after_the_recycled_runes() {
        let mut r = runes([1, 1, 0, 0, 0, 0], [0; DOMAINS]);
        r.pool = 1;
        assert!(r.can_pay(&cost(3, [0; DOMAINS], 0)));
        assert!(!r.can_pay(&cost(4, [0; DOMAINS], 0)));
        let paid = r.pay(&cost(2, [1, 0, 0, 0, 0, 0], 0));
        assert_eq!(paid.recycled, [1, 0, 0, 0, 0, 0]);
        assert_eq!(r.pool, 0, "the pool pays the second Energy");
        assert_eq!(r.ready, [0, 1, 0, 0, 0, 0], "the Calm rune is kept ready");
        let mut r = runes([1, 0, 0, 0, 0, 0], [0; DOMAINS]);
        r.pool = 1;
        r.pay(&cost(1, [1, 0, 0, 0, 0, 0], 0));
        assert_eq!(
            r.pool, 1,
            "the recycled Fury rune pays the Energy too: the pool is kept"
        );
    }

    /// 130.2, 133.2.e: Power of any domain ([A]) takes a rune left over
    /// once each domain's own Power is counted, and is recycled from the
    /// domain with the most runes left. No Origins card costs [A] yet, so
    /// no game scenario reaches it; the misreadings: the spare counted as
    /// the runes held plus those needed, or [A] taken from the domain with
    /// the fewest.
    #[test]
    fn any_power_takes_a_rune_left_over_from_the_domain_with_most() {
        let one_fury = runes([1, 0, 0, 0, 0, 0], [0; DOMAINS]);
        let fury_and_any = cost(0, [1, 0, 0, 0, 0, 0], 1);
        assert!(
            !one_fury.can_pay(&fury_and_any),
            "the Fury rune pays the Fury Power; none is left for [A]"
        );
        let mut r = runes([1, 0, 3, 0, 0, 0], [0; DOMAINS]);
        assert!(r.can_pay(&fury_and_any));
        let paid = r.pay(&fury_and_any);
        assert_eq!(
            paid.recycled,
            [1, 0, 1, 0, 0, 0],
            "[A] from Mind, the domain with the most left"
        );
    }
}
