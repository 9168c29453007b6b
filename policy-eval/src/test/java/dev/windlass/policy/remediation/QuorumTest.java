package dev.windlass.policy.remediation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class QuorumTest {

    @Test
    void aSingleUnhealthyMemberIsNeverRemediated() {
        assertEquals(new Verdict(false, "1 member, 0 healthy: remediating one would leave 0 healthy, quorum needs 1; the group has already lost quorum"),
                Quorum.allows(1, 0, 0));
        assertEquals(new Verdict(false, "1 member, 1 healthy: no member is unhealthy, nothing to remediate"), Quorum.allows(1, 1, 0));
    }

    @Test
    void threeMembersTolerateOne() {
        assertEquals(new Verdict(true, "3 members, 2 healthy: remediating one leaves 2 healthy, quorum needs 2"), Quorum.allows(3, 2, 0),
                "the member remediated is already unhealthy, so the healthy count stays 2");
        assertEquals(new Verdict(false, "3 members, 1 healthy: remediating one would leave 1 healthy, quorum needs 2; the group has already lost quorum"),
                Quorum.allows(3, 1, 0));
        assertFalse(Quorum.allows(3, 0, 0).allowed());
        assertFalse(Quorum.allows(3, 3, 0).allowed(), "nothing is unhealthy");
    }

    @Test
    void fiveMembersTolerateTwoOneAtATime() {
        assertEquals(new Verdict(true, "5 members, 4 healthy: remediating one leaves 4 healthy, quorum needs 3"), Quorum.allows(5, 4, 0));
        assertEquals(new Verdict(true, "5 members, 3 healthy: remediating one leaves 3 healthy, quorum needs 3"), Quorum.allows(5, 3, 0));
        assertEquals(new Verdict(false, "5 members, 3 healthy: one remediation in flight; quorum allows one at a time, the next waits until it is done"),
                Quorum.allows(5, 3, 1));
        assertEquals(new Verdict(false, "5 members, 2 healthy: remediating one would leave 2 healthy, quorum needs 3; the group has already lost quorum"),
                Quorum.allows(5, 2, 0));
    }

    @Test
    void sevenMembersTolerateThree() {
        assertEquals(new Verdict(true, "7 members, 4 healthy: remediating one leaves 4 healthy, quorum needs 4"), Quorum.allows(7, 4, 0));
        assertEquals(new Verdict(false, "7 members, 3 healthy: remediating one would leave 3 healthy, quorum needs 4; the group has already lost quorum"),
                Quorum.allows(7, 3, 0));
        assertFalse(Quorum.allows(7, 6, 1).allowed(), "one in flight blocks even with plenty healthy");
        assertEquals(new Verdict(false, "7 members, 5 healthy: 2 remediations in flight; quorum allows one at a time, the next waits until it is done"),
                Quorum.allows(7, 5, 2));
    }

    @Test
    void evenGroupsNeedMoreThanHalf() {
        assertTrue(Quorum.allows(4, 3, 0).allowed(), "4 members: quorum 3");
        assertFalse(Quorum.allows(4, 2, 0).allowed(), "half is not a majority");
    }

    @Test
    void impossibleCountsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Quorum.allows(0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> Quorum.allows(3, 4, 0));
        assertThrows(IllegalArgumentException.class, () -> Quorum.allows(3, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> Quorum.allows(3, 2, -1));
    }
}
