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

# The differential engine asks many questions of one body in a row, by URL
# then agent, and WWW::RobotRules parses a body for one agent and one
# robots.txt URL. The library's parse depends on the agent only through
# is_me() of the values of the file's User-agent lines: agents that is_me()
# answers alike for every such value get the same rules, so the rules are
# kept per robots.txt URL and that answer, and a body is parsed once for
# all the agents of a file that share one group. The body is recognised by
# its base64 text, so an unchanged body is neither decoded nor compared
# byte by byte again.
my ($body_b64, $body, @ua_values, %rules, %agent_key);

sub body {
    my ($b64) = @_;
    $b64 = '' unless defined $b64;
    if (!defined $body_b64 || $body_b64 ne $b64) {
        # Decode before forgetting the old body, so that a bad request
        # leaves the cache as it was.
        $body = MIME::Base64::decode_base64($b64);
        $body_b64 = $b64;
        @ua_values = ua_values($body);
        %rules = ();
        %agent_key = ();
    }
    return $body;
}

# ua_values returns the distinct values of the body's User-agent lines
# other than "*", read the way WWW::RobotRules::parse reads them (line
# ends, comments, spacing): the values it may pass to is_me().
sub ua_values {
    my ($txt) = @_;
    $txt =~ s/\015\012/\012/g;
    my %seen;
    for (split(/[\012\015]/, $txt)) {
        next if /^\s*\#/;
        s/\s*\#.*//;
        next unless /^\s*User-Agent\s*:\s*(.*)/i;
        my $ua = $1;
        $ua =~ s/\s+$//;
        $seen{$ua} = 1 unless $ua eq '*';
    }
    return sort keys %seen;
}

# rules returns the rules for agent under robots_url, parsing the body
# only for the first agent with its is_me() answers.
sub rules {
    my ($robots, $agent, $robots_url) = @_;
    my $key = $agent_key{$agent} //= do {
        my $r = WWW::RobotRules->new($agent);
        join '', map { $r->is_me($_) ? 1 : 0 } @ua_values;
    };
    return $rules{"$key\0$robots_url"} ||= do {
        my $r = WWW::RobotRules->new($agent);
        $r->parse($robots_url, $robots);
        $r;
    };
}

sub check {
    my ($robots, $agent, $url) = @_;
    # The request leaves out an empty agent or URL.
    $agent = '' unless defined $agent;
    $url = '' unless defined $url;
    my $page = URI->new($url);
    my $robots_url = URI->new_abs('/robots.txt', $page)->as_string;
    my $ok = rules($robots, $agent, $robots_url)->allowed($page);
    return 'allow' if $ok eq '1';
    return 'disallow' if $ok eq '0';
    die "allowed() returned $ok\n";
}

# one answers one question: a verdict, or the error of that question alone.
sub one {
    my ($robots, $agent, $url) = @_;
    my $verdict = eval { check($robots, $agent, $url) };
    return { verdict => $verdict } if defined $verdict;
    my $err = $@ || 'unknown error';
    chomp $err;
    return { error => $err };
}

sub answer {
    my ($msg) = @_;
    my $id = defined $msg->{id} ? $msg->{id} : '';
    my $reply = eval {
        die "this peer does not fetch (no capability fetch)\n" if $msg->{robots_url};
        die "this peer takes no status (no capability status)\n" if $msg->{status};
        my $robots = body($msg->{robots_b64});
        if (exists $msg->{questions}) {
            # A batch: one body, many questions, answered in order.
            die "questions is not a list\n" unless ref $msg->{questions} eq 'ARRAY';
            my @answers = map {
                ref $_ eq 'HASH' ? one($robots, $_->{agent}, $_->{url}) : { error => 'a question is not an object' }
            } @{ $msg->{questions} };
            { id => $id, answers => \@answers };
        } else {
            { id => $id, %{ one($robots, $msg->{agent}, $msg->{url}) } };
        }
    };
    return $reply if defined $reply;
    my $err = $@ || 'unknown error';
    chomp $err;
    return { id => $id, error => $err };
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
            capabilities => ['parse', 'batch'],
        };
    } else {
        $reply = answer($msg);
    }
    print $json->encode($reply), "\n";
}
