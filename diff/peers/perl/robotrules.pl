#!/usr/bin/perl
# reptest peer for WWW::RobotRules (Debian libwww-robotrules-perl), speaking
# the reptest/1 protocol: JSON lines on standard input and output (docs/FORMAT.md
# §3 in the reptest repository).
#
# The library parses a body for the robots.txt URL of the page and answers
# allowed() for the page. It has no notion of HTTP status (LWP::RobotUA does
# that part), so this peer takes parse requests only.
use strict;
use warnings;

use MIME::Base64 ();
use URI ();

BEGIN {
    unless (eval { require WWW::RobotRules; 1 }) {
        print STDERR "perl-robotrules peer: cannot load WWW::RobotRules (install Debian package libwww-robotrules-perl)\n";
        exit 3;
    }
}

binmode STDIN;
binmode STDOUT;
$| = 1;

# JSON::XS (Debian libjson-xs-perl) when present: the pure-Perl JSON::PP
# takes about 50 ms to decode a request carrying a 200 KB body, which made
# this peer the slowest of all by far. JSON::PP is the fallback, so the
# peer still runs where only perl-base is installed.
my $json = eval { require JSON::XS; JSON::XS->new } || do { require JSON::PP; JSON::PP->new };
$json->utf8->canonical;

# The differential engine asks many questions of one body in a row, so the
# last parsed file is kept, per agent and robots.txt URL.
my ($last_key, $last_rules);

sub check {
    my ($robots, $agent, $url) = @_;
    my $page = URI->new($url);
    my $robots_url = URI->new_abs('/robots.txt', $page);
    my $key = join("\0", $agent, $robots_url->as_string, $robots);
    if (!defined $last_key || $last_key ne $key) {
        $last_rules = WWW::RobotRules->new($agent);
        $last_rules->parse($robots_url, $robots);
        $last_key = $key;
    }
    my $rules = $last_rules;
    my $ok = $rules->allowed($page);
    return 'allow' if $ok eq '1';
    return 'disallow' if $ok eq '0';
    die "allowed() returned $ok\n";
}

sub answer {
    my ($msg) = @_;
    my $id = defined $msg->{id} ? $msg->{id} : '';
    my $verdict = eval {
        die "this peer does not fetch (no capability fetch)\n" if $msg->{robots_url};
        die "this peer takes no status (no capability status)\n" if $msg->{status};
        my $robots = MIME::Base64::decode_base64(defined $msg->{robots_b64} ? $msg->{robots_b64} : '');
        check($robots, $msg->{agent}, $msg->{url});
    };
    if (!defined $verdict) {
        my $err = $@ || 'unknown error';
        chomp $err;
        return { id => $id, error => $err };
    }
    return { id => $id, verdict => $verdict };
}

while (my $line = <STDIN>) {
    my $msg = eval { $json->decode($line) };
    my $reply;
    if (ref $msg ne 'HASH') {
        $reply = { error => 'not a request: ' . ($@ || 'not a JSON object') };
        chomp $reply->{error};
    } elsif (exists $msg->{hello}) {
        $reply = {
            name         => 'perl-robotrules',
            version      => "$WWW::RobotRules::VERSION",
            runtime      => sprintf('Perl %vd', $^V),
            capabilities => ['parse'],
        };
    } else {
        $reply = answer($msg);
    }
    print $json->encode($reply), "\n";
}
