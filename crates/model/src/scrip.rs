//! The Scrip economy around a battle, as a library the shop and the match
//! loop call: a player's Gold, Dividend and Profit, the Dividend-first shop
//! payment (800.15c, 800.15d, 800.53b, 900.36), selling (800.33j, 800.47d,
//! 900.36c) and banking what Hubs settled (800.61c). Dividend and Profit are
//! match-long and never decay (800.15a, 800.15e, 800.53a); Stock is the
//! battle's own and lives in the engine (800.67).

use serde::Serialize;

/// A player's resources between battles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Wallet {
    pub gold: i32,
    pub dividend: i32,
    pub profit: i32,
}

/// What selling a card brought.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sale {
    pub gold: i32,
    pub dividend: i32,
}

/// How a shop cost was paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Payment {
    pub dividend: i32,
    pub gold: i32,
    /// Profit gained: one per Dividend spent (800.15d, 800.53b).
    pub profit: i32,
}

/// A cost the wallet cannot meet: the cost, the Dividend that would pay
/// part of it, the Gold left to pay and the Gold held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unaffordable {
    pub cost: i32,
    pub dividend: i32,
    pub gold: i32,
    pub held: i32,
}

impl std::fmt::Display for Unaffordable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a cost of {} needs {} Gold after {} Dividend; the wallet holds {} Gold",
            self.cost, self.gold, self.dividend, self.held
        )
    }
}

impl std::error::Error for Unaffordable {}

impl Wallet {
    /// Pays a shop purchase or reroll of `cost` (the discounted total,
    /// 900.36a): Dividend first, as much as it can, Gold only the
    /// remainder (800.15c); each Dividend spent adds 1 Profit (900.36b).
    /// A cost the wallet cannot meet changes nothing.
    pub fn pay(&mut self, cost: i32) -> Result<Payment, Unaffordable> {
        let cost = cost.max(0);
        let dividend = cost.min(self.dividend.max(0));
        let gold = cost - dividend;
        if gold > self.gold {
            return Err(Unaffordable {
                cost,
                dividend,
                gold,
                held: self.gold,
            });
        }
        self.dividend -= dividend;
        self.gold -= gold;
        self.profit = self.profit.saturating_add(dividend);
        Ok(Payment {
            dividend,
            gold,
            profit: dividend,
        })
    }

    /// Undoes `paid`: a purchase that could not be completed costs nothing.
    pub fn refund(&mut self, paid: Payment) {
        self.gold = self.gold.saturating_add(paid.gold);
        self.dividend = self.dividend.saturating_add(paid.dividend);
        self.profit = self.profit.saturating_sub(paid.profit);
    }

    /// Sells a card for its Gold value: never spends Dividend or grants
    /// Profit (800.33j, 800.47d, 900.36c); a Penny-sale ability that adds
    /// Dividend does so through [`Wallet::bank`].
    pub fn sell(&mut self, gold_value: i32) {
        self.gold = self.gold.saturating_add(gold_value.max(0));
    }

    /// Sells a card at `tier`: its Gold value (900.36c) and the Dividend
    /// its `sold` lines add (800.15d, 800.47d).
    pub fn sell_card(
        &mut self,
        catalog: &crate::catalog::Catalog,
        gold_per_tier: i32,
        card: crate::catalog::CardId,
        tier: u8,
    ) -> Sale {
        let sale = Sale {
            gold: gold_per_tier.saturating_mul(i32::from(tier)),
            dividend: catalog.sale_dividend(card, tier),
        };
        self.sell(sale.gold);
        self.bank(sale.dividend);
        sale
    }

    /// Adds Dividend: what Hubs settled at battle end (800.61c) or an
    /// ability granted (800.15b). It stays for the match (800.15e).
    pub fn bank(&mut self, dividend: i32) {
        self.dividend = self.dividend.saturating_add(dividend.max(0));
    }
}

/// A player's resonance slot (800.58a, 800.58b): at most one resonance
/// equipped; claiming one (a boss signature reward) replaces the equipped
/// one. Nothing unequips or sells it: the slot has no such operation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ResonanceSlot(Option<crate::catalog::ResonanceId>);

impl ResonanceSlot {
    pub fn new(equipped: Option<crate::catalog::ResonanceId>) -> ResonanceSlot {
        ResonanceSlot(equipped)
    }

    /// Equips `claimed`, returning the resonance it replaced (800.58b).
    pub fn claim(&mut self, claimed: crate::catalog::ResonanceId) -> Option<crate::catalog::ResonanceId> {
        self.0.replace(claimed)
    }

    pub fn equipped(&self) -> Option<crate::catalog::ResonanceId> {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dividend_pays_first_and_each_spent_adds_profit() {
        // 900.36: cost 5 with 3 Dividend and 4 Gold: 3 Dividend, 2 Gold, +3 Profit.
        let mut w = Wallet {
            gold: 4,
            dividend: 3,
            profit: 0,
        };
        let p = w.pay(5).expect("affordable");
        assert_eq!((p.dividend, p.gold, p.profit), (3, 2, 3));
        assert_eq!(
            w,
            Wallet {
                gold: 2,
                dividend: 0,
                profit: 3
            }
        );
        // Too dear: nothing changes.
        assert!(w.pay(9).is_err());
        assert_eq!(
            w,
            Wallet {
                gold: 2,
                dividend: 0,
                profit: 3
            }
        );
        // 900.36c: a sale is Gold only.
        w.sell(3);
        assert_eq!(
            w,
            Wallet {
                gold: 5,
                dividend: 0,
                profit: 3
            }
        );
    }
}
